// The agent a lesson script names through api.js: the same cluster compared by Argo CD
// (a three-way merge that keeps a field Git never set) and by Flux (its forced
// server-side apply after handing kubectl's fields to itself), in Node, as a lesson
// author's script or a course's grader runs it.

import assert from 'node:assert/strict';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { dist, test } from './harness.mjs';

const web = (labels) => ({
  apiVersion: 'apps/v1',
  kind: 'Deployment',
  metadata: { name: 'web', namespace: 'shop', labels },
  spec: { replicas: 2, selector: { matchLabels: { app: 'web' } }, template: { metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'web', image: 'registry.example/web:1.0.0' }] } } },
});

test('api.js compares as the agent a script names: a label kubectl edit added is drift to Flux, not to Argo CD', async () => {
  const api = await import(pathToFileURL(join(dist, 'api.js')).href);
  await api.init();
  const desired = [web({ app: 'web' })];
  for (const agent of ['argocd', 'flux']) {
    const options = { application: 'shop', agent };
    // The agent's own apply into an empty cluster, then a person's `kubectl edit`.
    const synced = api.apply(api.diff(desired, [], options), []);
    const live = synced.find((object) => object.metadata.name === 'web');
    const edited = structuredClone(live);
    edited.metadata.labels.debug = 'true';
    if (agent === 'flux') {
      assert.equal(live.metadata.labels['kustomize.toolkit.fluxcd.io/name'], 'shop');
      assert.deepEqual(live.metadata.managedFields.map((entry) => [entry.manager, entry.operation]), [['kustomize-controller', 'Apply']]);
      edited.metadata.managedFields.push({ manager: 'kubectl-edit', operation: 'Update', apiVersion: 'apps/v1', fieldsType: 'FieldsV1', fieldsV1: { 'f:metadata': { 'f:labels': { 'f:debug': {} } } } });
    } else {
      assert.ok(live.metadata.annotations['argocd.argoproj.io/tracking-id']);
      assert.equal(live.metadata.managedFields, undefined);
    }
    const drift = api.drift(desired, [edited], options);
    assert.deepEqual(drift.changed, agent === 'flux' ? ['Deployment/shop/web'] : [], agent);
  }
  assert.throws(() => api.diff(desired, [], { agent: 'kubectl' }), /agent/);
});
