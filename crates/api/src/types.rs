//! The TypeScript shapes of what the API takes and returns, written into
//! the module's `.d.ts` (and so into `api.d.ts`), so that a lesson
//! author's editor completes them. They follow the core's `Serialize`
//! impls; `crates/api/tests/results.rs` checks results against them.

use wasm_bindgen::prelude::*;

#[wasm_bindgen(typescript_custom_section)]
const SHAPES: &'static str = r#"
/** A JSON value, as states and objects hold them. */
export type Json = null | boolean | number | string | Json[] | { [field: string]: Json };

/**
 * A state: an object of named objects (the lesson's form), a list of
 * Kubernetes objects (or one), or a Kubernetes `List`.
 */
export type State = { [name: string]: Json } | Json[];

/** A state, that state as JSON or YAML text, or that text's UTF-8 bytes (as `fetch`'s `arrayBuffer()` or `bytes()` gives them). */
export type StateInput = State | string | Uint8Array | ArrayBuffer;

/**
 * A field another controller owns: a JSON pointer for every object (a sync
 * keeps its live value); an entry of Argo CD's `ignoreDifferences` (group
 * and kind by glob, an omitted group being the core group; a sync writes
 * Git's value unless `respectIgnoreDifferences`); or an entry of Flux's
 * `spec.ignore` (a sync keeps the live value).
 */
export type IgnoreRule =
  | string
  | {
      group?: string;
      kind?: string;
      name?: string;
      namespace?: string;
      jsonPointers?: string[];
      jqPathExpressions?: string[];
    }
  | {
      paths: string[];
      target?: { group?: string; kind?: string; name?: string; namespace?: string };
    };

/** How the reconciler treats the difference, as a scenario's `options`. */
export interface Options {
  prune?: boolean;
  ignore?: IgnoreRule[];
  /** Argo CD's `RespectIgnoreDifferences=true`: a sync keeps what its rules ignore. */
  respectIgnoreDifferences?: boolean;
  /**
   * The Argo CD Application (or, with `agent: "flux"`, the Flux Kustomization)
   * the Kubernetes objects belong to: what is applied carries its tracking id
   * (`argocd.argoproj.io/tracking-id`; Flux's `kustomize.toolkit.fluxcd.io/name`
   * and `/namespace` labels), and only live objects carrying theirs are extra.
   * Left out, every live object Git does not declare is extra (the
   * playground's simpler rule).
   */
  application?: string;
  /** Flux's `spec.force`: an update the API server refuses recreates the object. */
  force?: boolean;
  /**
   * With a scenario's top-level `applications`: argocd-cm's
   * `resource.customizations.health.argoproj.io_Application`, so the root
   * Application creates each wave of its children once the waves before are Healthy.
   */
  applicationHealthCheck?: boolean;
  /**
   * Whose agent compares and applies: `argocd` (the default: a client-side
   * apply with its last-applied record) or `flux` (with an `application`:
   * kustomize-controller's forced server-side apply after its cleanup of
   * field managers, each live object compared with what that apply would
   * write, and `metadata.managedFields` saying who owns each field).
   */
  agent?: "argocd" | "flux";
}

/** One field that differs: the live value `from`, the desired value `to`. */
export interface Change {
  /** RFC 6901 pointer of the field. */
  path: string;
  /** Absent when Git adds the field. */
  from?: Json;
  /** Absent when Git removed the field. */
  to?: Json;
}

/** One step of a plan, in its sync wave, in the order a sync runs it. */
export type Operation =
  | { op: "create"; key: string; wave: number; object: Json }
  | { op: "update"; key: string; wave: number; changes: Change[]; object: Json }
  | { op: "delete"; key: string; wave: number; /** Prune=confirm: a sync waits for a person to confirm it. */ confirm?: true }
  | { op: "skip"; key: string; wave: number; reason: string };

/** Every difference, whether or not the plan will fix it; keys in order. */
export interface Drift {
  missing: string[];
  changed: string[];
  extra: string[];
  /** Live objects Git does not declare that the application does not manage. */
  unmanaged?: string[];
  changes: { [key: string]: Change[] };
}

export type SyncStatus = "Synced" | "OutOfSync" | "Unknown";
export type Health = "Healthy" | "Suspended" | "Progressing" | "Missing" | "Degraded" | "Unknown";

/** A finding of the lesson's checklist. */
export interface Warning {
  key: string;
  rule:
    | "mutable-image-tag"
    | "plaintext-secret"
    | "unprotected-prune"
    | "pruned-namespace"
    | "field-owned-by-controller"
    | "ignore-rule-selects-nothing";
  message: string;
}

/** The plan, drift and status of a pair of states, from one comparison. */
export interface Report {
  plan: Operation[];
  drift: Drift;
  status: { sync: SyncStatus; health: Health };
  /** Each object of either state; `health` is absent for kinds without a rule. */
  objects: { key: string; sync: SyncStatus; health?: Health }[];
  warnings: Warning[];
}

/** Something that happened in the world: who acted, what and why. */
export interface WorldEvent {
  step: number;
  actor: string;
  what: string;
  why?: string;
  /** What the actor acted on: the state repository, the registry, an environment's
   *  cluster, or the agent of an environment's cluster (a person asking it for a sync). */
  place?: "git" | "registry" | { cluster: string } | { agent: string };
  /** The object it acted on, by its key, when it acted on one. */
  object?: string;
  /** The credential it used, as `"registry: push"`, `"Git: read"` or `"cluster: write"`. */
  credential?: string;
  /** Present when what it tried was refused (no credential for it, or a rule of the place). */
  refused?: true;
}

/** An environment at the end of a run. */
export interface EnvironmentStatus {
  sync: SyncStatus;
  health: Health;
  /** The head of Git. */
  head: string;
  /** The revision the agent last synced (pull mode). */
  syncedRevision?: string;
  error?: string;
  warnings?: Warning[];
}

/** What `run` returns: the events step by step, and where the world ends. */
export interface RunResult {
  events: WorldEvent[];
  final: {
    step: number;
    /** Each environment's desired state at the head of Git (null when it does not read). */
    desired: { [environment: string]: State | null };
    actual: { [environment: string]: State };
    status: { [environment: string]: EnvironmentStatus };
    running: { [environment: string]: { [key: string]: unknown[] } };
    agent?: unknown;
    repository: unknown;
    registry: unknown;
  };
}

/**
 * The plan that makes `actual` equal `desired`, in the order a sync runs it.
 * `options` left out: nothing is pruned or ignored. Throws a
 * `GitopsInputError` when an input does not read.
 */
export function diff(desired: StateInput, actual: StateInput, options?: Options | null): Operation[];

/**
 * The drift of `actual` from `desired`, whether or not a plan would fix it.
 * Throws a `GitopsInputError` when an input does not read.
 */
export function drift(desired: StateInput, actual: StateInput, options?: Options | null): Drift;

/**
 * The plan, drift, status, objects and warnings, as `gitops-sim plan`
 * prints them. Throws a `GitopsInputError` when an input does not read.
 */
export function report(desired: StateInput, actual: StateInput, options?: Options | null): Report;

/**
 * The report of a scenario's environment at a minute, as `report` gives it: `at` left
 * out, at the start (what `gitops-sim plan` prints); `at: n`, once minute `n` has run,
 * Git's head against the cluster then. `environment` left out: the first. Throws a
 * `GitopsInputError` when the scenario does not read, or for an environment it lacks
 * or a minute past its end.
 */
export function plan(scenario: object | string, at?: { environment?: string; at?: number } | null): Report;

/** A goal or question of an exercise, checked. */
export interface Outcome {
  what: string;
  passed: boolean;
  why: string;
}

/** An exercise checked against a student's work, as `gitops-sim check` prints it. */
export interface Checked {
  goals: Outcome[];
  questions: Outcome[];
  solved: boolean;
}

/**
 * Checks an exercise (a scenario with an `exercise` block) against a student's work,
 * as `gitops-sim check` does. `work` is the share link of their work (`#v1.…`, or the
 * whole address), or `{interactions?, answers?}` as a solution file holds it; left out,
 * the exercise's start. `presets` holds the texts of the presets its questions run,
 * by file name; a question whose preset is not there fails, saying so. Throws a
 * `GitopsInputError` when the exercise or the work does not read, or the work does
 * not fit the exercise (source `work`).
 */
export function check(exercise: object | string, work?: string | { interactions?: Json[]; answers?: (number | null)[] } | null, presets?: { [file: string]: string } | null): Checked;

/** A session written as a scenario file: its text, and what a scenario file cannot say. */
export interface SavedScenario {
  /** YAML, or JSON when the scenario was JSON. */
  text: string;
  /** What was done that the file does not keep, and why. */
  notKept: string[];
}

/**
 * Save as scenario: what was done in `scenario` (its share link, `#v1.…` or the whole
 * address, or `{interactions}`), written as a scenario file: what was done before the
 * first minute is its start (Git's files, the clusters, the options), what was done from
 * then on its script's actions at their minutes. Throws a `GitopsInputError` when either
 * does not read.
 */
export function saveScenario(scenario: object | string, work: string | { interactions?: Json[] }): SavedScenario;

/** What every function throws for bad input: an `Error` named `GitopsInputError`. */
export interface GitopsInputError extends Error {
  name: "GitopsInputError";
  kind: "syntax" | "shape" | "duplicateKey" | "tooLarge";
  /** Which input: `desired`, `actual`, `options`, `plan`, `scenario`, `work` or `presets`. */
  source: string;
  line?: number;
  column?: number;
  pointer?: string;
  key?: string;
}
"#;
