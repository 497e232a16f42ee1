// The benchmark's inputs, the same shape as benches/plan.rs: Deployment-sized objects
// in Git, and the cluster's copies with what the API server adds (defaults, status, the
// last-applied record), 1% of them drifted. Deterministic: a fixed seed picks which
// objects drift and how. Plain JavaScript, for Node and for the browser.

export const SEED = 20_240_601;
export const DRIFT_EVERY = 100;
const LAST_APPLIED = 'kubectl.kubernetes.io/last-applied-configuration';
const TRACKING_ID = 'argocd.argoproj.io/tracking-id';

/**
 * The inputs for `size` objects: the two states as values and as compact JSON text.
 * With `application`, the cluster's copies are as that Argo CD application applied
 * them: with their tracking id, in the object and in its last-applied record (the
 * page's scenarios name an application; the API's `diff` does not).
 */
export function workload(size, { seed = SEED, application } = {}) {
  const desired = Array.from({ length: size }, (_, index) => deployment(index));
  const random = mulberry32(seed + size);
  const drifted = new Set(sample(size, Math.max(1, Math.floor(size / DRIFT_EVERY)), random));
  const live = desired
    .map((object, index) => {
      const copy = asLive(application ? tracked(object, application) : object, index);
      if (drifted.has(index)) drift(copy, random);
      return copy;
    })
    .sort((a, b) => compareKeys(keyOf(a), keyOf(b)));
  return {
    size,
    drifted: drifted.size,
    desired,
    live,
    desiredText: JSON.stringify(desired),
    actualText: JSON.stringify(live),
  };
}

/** A Kubernetes object's key, as the playground writes it: `Kind/namespace/name` or `Kind/name`. */
export function keyOf(object) {
  const { namespace, name } = object.metadata;
  return namespace ? `${object.kind}/${namespace}/${name}` : `${object.kind}/${name}`;
}

/** A list of Kubernetes objects as one object keyed by `keyOf`. */
export function keyed(list) {
  const byKey = {};
  for (const object of list) byKey[keyOf(object)] = object;
  return byKey;
}

export function deployment(index) {
  const name = `service-${String(index).padStart(5, '0')}`;
  return {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: {
      name,
      namespace: `team-${index % 20}`,
      labels: { 'app.kubernetes.io/name': name, 'app.kubernetes.io/part-of': 'shop', tier: 'backend' },
      annotations: { 'argocd.argoproj.io/sync-wave': String(index % 3) },
    },
    spec: {
      replicas: 2 + (index % 3),
      selector: { matchLabels: { 'app.kubernetes.io/name': name } },
      template: {
        metadata: { labels: { 'app.kubernetes.io/name': name } },
        spec: {
          containers: [
            {
              name: 'app',
              image: `registry.example/${name}@sha256:${index.toString(16).padStart(64, '0')}`,
              ports: [{ containerPort: 8080, name: 'http' }],
              env: [
                { name: 'LOG_LEVEL', value: 'info' },
                { name: 'REGION', value: 'eu-west-1' },
              ],
              resources: { requests: { cpu: '100m', memory: '128Mi' }, limits: { memory: '256Mi' } },
              readinessProbe: { httpGet: { path: '/healthz', port: 8080 }, periodSeconds: 5 },
            },
          ],
        },
      },
    },
  };
}

/** `object` with Argo CD's tracking id in `application` (`resource_tracking.go`, `BuildAppInstanceValue`). */
function tracked(object, application) {
  const copy = structuredClone(object);
  const group = copy.apiVersion.includes('/') ? copy.apiVersion.split('/')[0] : '';
  copy.metadata.annotations[TRACKING_ID] = `${application}:${group}/${copy.kind}:${copy.metadata.namespace}/${copy.metadata.name}`;
  return copy;
}

/** What the cluster holds after applying `object`: the record of it, defaults and status. */
function asLive(object, index) {
  const live = structuredClone(object);
  live.metadata.annotations[LAST_APPLIED] = `${JSON.stringify(object)}\n`;
  live.metadata.uid = `5b6f1f0e-0000-4000-8000-${index.toString(16).padStart(12, '0')}`;
  live.metadata.resourceVersion = String(100_000 + index);
  live.metadata.generation = 1;
  live.spec.revisionHistoryLimit = 10;
  live.spec.progressDeadlineSeconds = 600;
  live.spec.template.spec.containers[0].imagePullPolicy = 'IfNotPresent';
  const replicas = live.spec.replicas;
  live.status = { observedGeneration: 1, replicas, updatedReplicas: replicas, readyReplicas: replicas, availableReplicas: replicas };
  return live;
}

/** A change made in the cluster by hand, to a field Git sets. */
function drift(live, random) {
  const container = live.spec.template.spec.containers[0];
  const changes = [
    () => (container.image = 'registry.example/hotfix:latest'),
    () => (live.spec.replicas += 5),
    () => (container.env[0].value = 'debug'),
  ];
  changes[Math.floor(random() * changes.length)]();
}

/** `count` distinct indexes below `size`. */
function sample(size, count, random) {
  const indexes = Array.from({ length: size }, (_, index) => index);
  for (let i = 0; i < count; i += 1) {
    const j = i + Math.floor(random() * (size - i));
    [indexes[i], indexes[j]] = [indexes[j], indexes[i]];
  }
  return indexes.slice(0, count);
}

function compareKeys(a, b) {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** A small seeded generator of numbers in [0, 1). */
function mulberry32(seed) {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * Objects as a YAML stream, a document each in block style, as manifests are written:
 * every string quoted as JSON quotes it (which YAML reads alike), a key bare where it
 * can be.
 */
export function yamlStream(objects) {
  const key = (name) => (/^[A-Za-z0-9_./-]+$/.test(name) ? name : JSON.stringify(name));
  const scalar = (value) => (typeof value === 'string' ? JSON.stringify(value) : String(value));
  const block = (value, indent) => {
    const pad = ' '.repeat(indent);
    if (Array.isArray(value)) {
      if (!value.length) return ' []\n';
      return '\n' + value.map((item) => `${pad}-${isCollection(item) ? inline(item, indent + 2) : ` ${scalar(item)}\n`}`).join('');
    }
    if (!Object.keys(value).length) return ' {}\n';
    return '\n' + Object.entries(value).map(([name, item]) => `${pad}${key(name)}:${isCollection(item) ? block(item, indent + 2) : ` ${scalar(item)}\n`}`).join('');
  };
  // A list item's mapping starts on the dash's line.
  const inline = (item, indent) => (Array.isArray(item) || !Object.keys(item).length ? block(item, indent) : ' ' + block(item, indent).slice(1).trimStart());
  return objects.map((object) => `---${block(object, 0)}`).join('');
}

function isCollection(value) {
  return value !== null && typeof value === 'object';
}
