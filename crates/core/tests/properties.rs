//! The laws over generated states, options and ignore rules, natively and in
//! the browser.

mod common;

use gitops_testing::laws;

use common::generate::{desired_and_actual, options, selecting_state, written_options, Written, Writer};
use gitops_core::diff::flux_labels::{is_labelled_by, with_owner_labels};
use gitops_core::diff::normalize::desired_as_stored;
use gitops_core::diff::tracking::{is_tracked_by, with_tracking};
use gitops_core::options::Agent;
use gitops_core::diff::ssa::{argo_applies_server_side, argo_apply, flux_apply};
use gitops_core::pointer::Pattern;
use gitops_core::state::hook_annotations::is_hook;
use gitops_core::state::protection::{argo_prune_protection, flux_releases};
use gitops_core::state::render::{render, Format};
use gitops_core::{
    apply, drift, has_work, plan, report, sync, Form, Operation, Options, State,
};
use proptest::prelude::*;
use serde_json::Value;
use std::collections::{BTreeMap, BTreeSet};

fn keys_of<'a>(plan: &'a [Operation], verbs: &[&str]) -> BTreeSet<&'a str> {
    plan.iter()
        .filter(|operation| verbs.contains(&operation.verb()))
        .map(Operation::key)
        .collect()
}

fn set(keys: &[String]) -> BTreeSet<&str> {
    keys.iter().map(String::as_str).collect()
}

/// The objects a prune leaves: protected by an annotation the acting agent reads
/// (Argo CD's `Prune=false` and Flux's `prune: disabled`; under Flux, Flux's alone).
fn protected<'s>(state: &'s State, options: &Options) -> BTreeSet<&'s str> {
    state
        .objects()
        .iter()
        .filter(|(_, object)| {
            let (argo_cd, flux) = (argo_prune_protection(object).is_some(), flux_releases(object.value()).is_some());
            match (argo_cd_owns(state, options), options.acting_agent()) {
                (true, _) => argo_cd,
                (false, Agent::Flux) => flux,
                // Without an owner, Flux's marks count as well.
                (false, Agent::ArgoCd) => argo_cd || flux,
            }
        })
        .map(|(key, _)| &**key)
        .collect()
}

/// `state` with the objects `which` picks as a sync leaves them: with the
/// application's tracking id (Argo CD), or as Flux's apply writes them, with its
/// owner labels and who owns each field; as it is without an application or in
/// the lesson's form.
fn applied(state: &State, options: &Options, which: impl Fn(&str) -> bool) -> State {
    let Some(application) = options
        .application
        .as_deref()
        .filter(|_| *state.form() != Form::Named)
    else {
        return state.clone();
    };
    let objects = state
        .objects()
        .iter()
        .map(|(key, object)| {
            let object = match (which(key), options.agent) {
                (true, Agent::ArgoCd) if argo_applies_server_side(options.owner(), object.view()) => {
                    let tracked = with_tracking(desired_as_stored(object), application).into_owned();
                    argo_apply(None, &tracked).object
                }
                (true, Agent::ArgoCd) => with_tracking(object.view(), application).into_owned(),
                (true, Agent::Flux) => {
                    let labelled = with_owner_labels(desired_as_stored(object), application).into_owned();
                    flux_apply(None, &labelled).object
                }
                (false, _) => object.value().clone(),
            };
            (key.to_string(), object)
        })
        .collect();
    State::new(state.form().clone(), objects)
}

/// Some objects applied by the agent (those with a key of even length),
/// the others made by someone else.
fn partly_applied(state: &State, options: &Options) -> State {
    applied(state, options, |key| key.len() % 2 == 0)
}

/// Whether a live object Git does not declare is the application's: in the
/// lesson's form any; of Kubernetes objects, no hook's, and with an
/// application only what carries its tracking id (Argo CD) or its owner
/// labels (Flux). Never one Flux releases.
fn managed(desired: &State, object: &Value, options: &Options) -> bool {
    let application = options.application.as_deref();
    let owns = |application: &str| match options.agent {
        Agent::ArgoCd => is_tracked_by(object, application),
        Agent::Flux => is_labelled_by(object, application),
    };
    (argo_cd_owns(desired, options) || flux_releases(object).is_none())
        && (*desired.form() == Form::Named || (!is_argo_cd_hook(object, options) && application.is_none_or(owns)))
}

/// Whether Argo CD's agent owns the objects of `state`, and so reads none of
/// Flux's marks.
fn argo_cd_owns(state: &State, options: &Options) -> bool {
    options.application.is_some() && options.agent == Agent::ArgoCd && *state.form() != Form::Named
}

/// Whether an object is a hook of Argo CD's agent (under Flux an object like any other).
fn is_argo_cd_hook(object: &Value, options: &Options) -> bool {
    options.acting_agent() == Agent::ArgoCd && is_hook(object)
}

/// Whether Git declares the object at `key` as a resource (a hook is none,
/// in the lesson's form no object is one).
fn declared(desired: &State, key: &str, options: &Options) -> bool {
    desired
        .get(key)
        .is_some_and(|object| *desired.form() == Form::Named || !is_argo_cd_hook(object, options))
}

fn selecting<'r>(options: &'r Options, written: &[Written], key: &str, object: &Value) -> Vec<&'r Pattern> {
    options
        .ignore
        .iter()
        .zip(written)
        .filter(|(_, written)| selects(written, key, object))
        .flat_map(|(rule, _)| rule.patterns())
        .collect()
}

// The laws' oracles: the rules as Kubernetes, gitops-engine and Flux write them,
// each written here again, so that a rule the core gets wrong fails a law.

/// The annotations of a Kubernetes object, or of an object in the lesson's form.
fn annotations(object: &Value) -> Option<&serde_json::Map<String, Value>> {
    object
        .pointer("/metadata/annotations")
        .or_else(|| object.get("annotations"))
        .and_then(Value::as_object)
}

/// An annotation's values, comma-separated and trimmed (gitops-engine's
/// `resource.GetAnnotationCSVs`).
fn annotation_values<'a>(object: &'a Value, name: &str) -> Vec<&'a str> {
    annotations(object)
        .and_then(|annotations| annotations.get(name)?.as_str())
        .map_or_else(Vec::new, |text| text.split(',').map(str::trim).collect())
}

/// gitops-engine's `syncwaves.Wave`: the sync-wave annotation as an integer,
/// else Helm's hook weight, else 0.
fn annotated_wave(object: &Value) -> i64 {
    ["argocd.argoproj.io/sync-wave", "helm.sh/hook-weight"]
        .iter()
        .find_map(|name| annotations(object)?.get(*name)?.as_str()?.parse().ok())
        .unwrap_or(0)
}

/// `PruneLast=true` among the sync options (`HasAnnotationOption`).
fn annotated_prune_last(object: &Value) -> bool {
    annotation_values(object, "argocd.argoproj.io/sync-options").contains(&"PruneLast=true")
}

/// gitops-engine's hook types (`hook.Types`): Argo CD's hook annotation, else
/// Helm's (`pre-install`, `pre-upgrade` are PreSync; `post-install`,
/// `post-upgrade` PostSync); an object whose only type is Skip is no hook.
/// It runs in the Sync phase when it is no hook, or one of Sync. The lesson's
/// form has no hooks.
fn in_sync_phase(desired: &State, object: &Value) -> bool {
    if *desired.form() == Form::Named {
        return true;
    }
    const ARGO: [&str; 6] = ["PreSync", "Sync", "PostSync", "SyncFail", "PostDelete", "Skip"];
    let mut types: Vec<&str> = annotation_values(object, "argocd.argoproj.io/hook")
        .into_iter()
        .filter(|kind| ARGO.contains(kind))
        .collect();
    if types.is_empty() {
        types = annotation_values(object, "helm.sh/hook")
            .into_iter()
            .filter_map(|kind| match kind {
                "pre-install" | "pre-upgrade" => Some("PreSync"),
                "post-install" | "post-upgrade" => Some("PostSync"),
                _ => None,
            })
            .collect();
    }
    types.is_empty() || types == ["Skip"] || types.contains(&"Sync")
}

/// Whether a rule is for this object. The shorthand's is for every object;
/// Flux's for every object its `target.name` matches whole, or every object;
/// Argo CD's (its normalizer's `Normalize`) for an object whose group and
/// kind its globs match, where a glob left empty matches only the empty text
/// (so a rule without `kind` is for no Kubernetes object, and for every object
/// of the lesson's form, which has no kind), and whose name is its `name`.
fn selects(written: &Written, key: &str, object: &Value) -> bool {
    let name = object.pointer("/metadata/name").and_then(Value::as_str).unwrap_or(key);
    let named = written.name.as_deref().is_none_or(|wanted| wanted == name);
    let kind_matches = || written.every_kind || object.get("kind").is_none();
    named && (written.by != Writer::ArgoCd || kind_matches())
}

/// Whether a sync leaves the live value of an ignored field: Argo CD only with
/// `RespectIgnoreDifferences=true`; the shorthand and Flux always.
fn keeps_live(written: &Written, respect: bool) -> bool {
    written.by != Writer::ArgoCd || respect
}

/// Whether the API server refuses an update, by Kubernetes' validation of a
/// Deployment (`ValidateDeploymentUpdate`: `spec.selector` may not change),
/// unless an option deletes and creates the object instead: Argo CD's
/// `Force=true` (`kubectl apply --force`), Flux's force label or annotation
/// (`enabled`, whatever its case) or `spec.force`, on the object in Git or
/// in the cluster. `Replace=true` alone sends the whole object, refused alike.
fn api_server_refuses(operation: &Operation, desired: &State, actual: &State, options: &Options) -> bool {
    let Operation::Update { key, .. } = operation else {
        return false;
    };
    let (Some(git), Some(live)) = (desired.get(key), actual.get(key)) else {
        return false;
    };
    let forced = |object: &Value| {
        annotation_values(object, "argocd.argoproj.io/sync-options").contains(&"Force=true")
            || ["/metadata/annotations", "/metadata/labels"].iter().any(|place| {
                object
                    .pointer(&format!("{place}/kustomize.toolkit.fluxcd.io~1force"))
                    .and_then(Value::as_str)
                    .is_some_and(|value| value.eq_ignore_ascii_case("enabled"))
            })
    };
    git.pointer("/spec/selector") != live.pointer("/spec/selector")
        && !(options.force || forced(git) || forced(live))
}

/// Every value a pattern names in `value`, by its concrete path.
fn matches(pattern: &Pattern, value: &Value) -> BTreeMap<String, Value> {
    let segments: Vec<Option<&str>> = pattern.segments().collect();
    let mut found = BTreeMap::new();
    collect(&segments, value, String::new(), &mut found);
    found
}

fn collect(
    segments: &[Option<&str>],
    value: &Value,
    path: String,
    found: &mut BTreeMap<String, Value>,
) {
    let Some((segment, rest)) = segments.split_first() else {
        found.insert(path, value.clone());
        return;
    };
    let children: Vec<(String, &Value)> = match value {
        Value::Object(fields) => fields
            .iter()
            .map(|(name, child)| (name.clone(), child))
            .collect(),
        Value::Array(items) => items
            .iter()
            .enumerate()
            .map(|(index, child)| (index.to_string(), child))
            .collect(),
        _ => Vec::new(),
    };
    for (name, child) in children {
        if segment.is_none_or(|wanted| wanted == name) {
            collect(rest, child, format!("{path}/{name}"), found);
        }
    }
}

fn pattern_names(pattern: &Pattern, pointer: &str) -> bool {
    let steps: Vec<&str> = pointer.split('/').skip(1).collect();
    let segments: Vec<Option<&str>> = pattern.segments().collect();
    segments.len() <= steps.len()
        && segments
            .iter()
            .zip(&steps)
            .all(|(segment, step)| segment.is_none_or(|s| s == *step))
}

fn is_deletion(operation: &Operation) -> bool {
    matches!(operation.verb(), "delete" | "skip")
}

laws! {
    /// `apply` writes every operation as planned. The API server would
    /// refuse some updates (a Deployment's selector and the other fields of
    /// `sync::immutable`), and those no tool converges, however often it
    /// syncs: `sync` stops there, as the next law says.
    fn one_pass_converges_whatever_the_ignore_rules((desired, actual) in desired_and_actual(), options in options()) {
        let actual = partly_applied(&actual, &options);
        let mut after = apply(&plan(&desired, &actual, &options), &actual);
        if options.acting_agent() == Agent::Flux {
            // A live object that recorded no owner has its fields given to
            // `before-first-apply` by Flux's first apply, which its cleanup hands
            // to Flux at the next: a field Git does not set goes then.
            after = apply(&plan(&desired, &after, &options), &after);
        }
        prop_assert!(!has_work(&plan(&desired, &after, &options)), "a second pass has nothing to do");
        let left = drift(&desired, &after, &options);
        prop_assert!(left.missing.is_empty() && left.changed.is_empty(), "{:?}", left);
        let extras: BTreeSet<&str> = actual.objects().iter()
            .filter(|(key, object)| !declared(&desired, key, &options) && managed(&desired, object.value(), &options))
            .map(|(key, _)| &**key)
            .collect();
        let kept = if options.prune { extras.intersection(&protected(&actual, &options)).copied().collect() } else { extras };
        prop_assert_eq!(set(&left.extra), kept);
        if *desired.form() == Form::Named && options.ignore.is_empty() {
            for (key, object) in desired.objects() {
                prop_assert_eq!(after.get(key), Some(object.value()), "the lesson's form writes exactly what Git says");
            }
        }
    }

    /// Against the API server, a sync converges in one pass unless it
    /// refuses an update no option recreates: then the sync stops at that
    /// pass, the refused objects as they were, each refusal named.
    fn one_pass_converges_unless_the_api_server_refuses_an_update(
        desired in selecting_state(),
        actual in selecting_state(),
        force in any::<bool>(),
    ) {
        let options = Options { force, ..Options::default() };
        let first = plan(&desired, &actual, &options);
        let refused: BTreeSet<&str> = first
            .iter()
            .filter(|operation| api_server_refuses(operation, &desired, &actual, &options))
            .map(Operation::key)
            .collect();
        let run = sync(&desired, &actual, &options);
        if refused.is_empty() {
            prop_assert!(run.converged && run.passes.len() <= 2, "{:?}", run.passes);
            prop_assert!(run.refused.is_empty());
        } else {
            prop_assert!(!run.converged);
            prop_assert_eq!(run.passes.len(), 1);
            let named: BTreeSet<&str> = run.refused.iter().map(|refusal| refusal.key.as_str()).collect();
            let first_wave = first.iter().filter(|operation| refused.contains(operation.key())).map(Operation::wave).min();
            let in_that_wave: BTreeSet<&str> = refused.iter().copied().filter(|key| first.iter().any(|operation| operation.key() == *key && Some(operation.wave()) == first_wave)).collect();
            prop_assert_eq!(named, in_that_wave, "the refusals of the wave that failed");
            for key in &refused {
                prop_assert_eq!(run.actual.get(key), actual.get(key));
            }
        }
    }

    /// Argo CD's rules keep the live value only with RespectIgnoreDifferences;
    /// the shorthand and Flux's rules always do.
    fn ignored_fields_are_never_changes_and_keep_their_live_values(
        (desired, actual) in desired_and_actual(),
        (options, written) in written_options(),
    ) {
        let plan = plan(&desired, &actual, &options);
        let after = apply(&plan, &actual);
        for operation in &plan {
            if let Operation::Update { key, changes, .. } = operation {
                let desired_object = desired.get(key).unwrap();
                let patterns = selecting(&options, &written, key, desired_object);
                for change in changes {
                    prop_assert!(!patterns.iter().any(|p| pattern_names(p, &change.path)), "{} is ignored", change.path);
                }
                let respect = options.respect_ignore_differences;
                let kept = options.ignore.iter().zip(&written).filter(|(_, written)| keeps_live(written, respect) && selects(written, key, desired_object));
                for pattern in kept.flat_map(|(rule, _)| rule.patterns()) {
                    prop_assert_eq!(matches(pattern, after.get(key).unwrap()), matches(pattern, actual.get(key).unwrap()));
                }
            }
        }
    }

    fn prune_off_never_deletes((desired, actual) in desired_and_actual(), options in options()) {
        let options = Options { prune: false, ..options };
        let plan = plan(&desired, &actual, &options);
        prop_assert!(keys_of(&plan, &["delete", "skip"]).is_empty());
        let after = apply(&plan, &actual);
        prop_assert!(actual.objects().keys().all(|key| after.get(key).is_some()));
    }

    fn protected_objects_are_never_deleted((desired, actual) in desired_and_actual(), options in options()) {
        let after = sync(&desired, &actual, &options).actual;
        for key in protected(&actual, &options) {
            prop_assert!(after.get(key).is_some(), "{} was deleted", key);
        }
    }

    fn drift_and_plan_agree((desired, actual) in desired_and_actual(), options in options()) {
        let found = report(&desired, &actual, &options);
        prop_assert_eq!(keys_of(&found.plan, &["create"]), set(&found.drift.missing));
        prop_assert_eq!(keys_of(&found.plan, &["update"]), set(&found.drift.changed));
        let pruned = keys_of(&found.plan, &["delete", "skip"]);
        prop_assert_eq!(pruned, if options.prune { set(&found.drift.extra) } else { BTreeSet::new() });
        for operation in &found.plan {
            if let Operation::Update { key, changes, .. } = operation {
                prop_assert_eq!(Some(changes), found.drift.changes.get(key));
            }
        }
    }

    fn a_converged_state_gives_an_empty_plan((desired, _) in desired_and_actual(), options in options()) {
        let converged = applied(&desired, &options, |_| true);
        prop_assert!(plan(&desired, &converged, &options).is_empty());
        prop_assert!(drift(&desired, &converged, &options).is_empty());
    }

    fn a_bad_version_then_the_previous_one_restores_the_state((good, bad) in desired_and_actual()) {
        let prune = Options::pruning(true);
        let running = sync(&good, &State::empty(good.form().clone()), &prune).actual;
        let broken = sync(&bad, &running, &prune).actual;
        let restored = sync(&good, &broken, &prune).actual;
        for (key, object) in running.objects() {
            prop_assert_eq!(restored.get(key), Some(object.value()));
        }
        for key in restored.objects().keys().filter(|key| running.get(key).is_none()) {
            prop_assert!(protected(&bad, &prune).contains(&**key), "{} is left over but was not protected", key);
        }
    }

    fn the_plan_is_deterministic_and_ordered((desired, actual) in desired_and_actual(), options in options()) {
        let plan = plan(&desired, &actual, &options);
        prop_assert_eq!(&plan, &gitops_core::plan(&desired.clone(), &actual.clone(), &options.clone()));
        // gitops-engine: tasks sorted by wave (syncTasks.Less); runTasks prunes
        // a wave's tasks first, then creates and updates.
        prop_assert!(
            plan.windows(2).all(|pair| (pair[0].wave(), !is_deletion(&pair[0])) <= (pair[1].wave(), !is_deletion(&pair[1]))),
            "wave by wave, a wave's deletions before its writes"
        );
        if options.acting_agent() == Agent::Flux {
            // No waves and no PruneLast: one stage (`ApplyAllStaged`).
            prop_assert!(plan.iter().all(|operation| operation.wave() == 0), "Flux has no waves");
            return Ok(());
        }
        let own = |operation: &Operation| annotated_wave(actual.get(operation.key()).unwrap());
        let last = |operation: &Operation| annotated_prune_last(actual.get(operation.key()).unwrap());
        let deletions: Vec<&Operation> = plan.iter().filter(|operation| is_deletion(operation)).collect();
        let waves: BTreeSet<i64> = deletions.iter().map(|operation| own(operation)).collect();
        let mirrored: Vec<&&Operation> = deletions.iter().filter(|operation| !last(operation)).collect();
        for one in &mirrored {
            prop_assert!(waves.contains(&one.wave()), "a deletion runs in one of the waves deletions have");
            for other in &mirrored {
                if own(one) < own(other) {
                    prop_assert!(one.wave() > other.wave(), "deletion waves are mirrored: {} after {}", one.key(), other.key());
                }
            }
        }
        let sync_phase = desired.objects().values().filter(|object| in_sync_phase(&desired, object.value()));
        let highest = sync_phase.map(|object| annotated_wave(object.value())).chain(waves.iter().copied()).fold(0, i64::max);
        for operation in deletions.iter().filter(|operation| last(operation)) {
            prop_assert_eq!(operation.wave(), highest + 1, "PruneLast: the wave after the last of the sync phase");
            prop_assert!(plan.iter().filter(|other| !is_deletion(other) || !last(other)).all(|other| other.wave() < operation.wave()));
        }
    }

    /// crates/vendor/saphyr's one change: its emitter asks whether a string reads as a float
    /// by the grammar of `f64::from_str`, not by calling it. Strings near that grammar
    /// are quoted whenever the parser would read them, and read back as themselves.
    fn a_string_that_reads_as_a_number_is_quoted_in_yaml(
        text in "[+-]?(inf|INF|Infinity|nan|NaN|[0-9]{0,3}[.]?[0-9]{0,3}([eE][+-]?[0-9]{0,2})?)[x_ ]?"
    ) {
        let state = State::from_value("number-like", serde_json::json!({"web": {"tag": text}})).unwrap();
        let rendered = render(&state, Format::Yaml);
        let plain = rendered.text.lines().any(|line| line.trim() == format!("tag: {text}"));
        if text.parse::<f64>().is_ok() {
            prop_assert!(!plain, "{} reads as a number: quoted in {}", text, rendered.text);
        }
        let read_back = State::read("rendered", &rendered.text).unwrap();
        prop_assert_eq!(read_back.objects(), state.objects(), "{}", rendered.text);
    }

    fn a_state_reads_back_what_it_writes((state, _) in desired_and_actual()) {
        let text = serde_json::to_string(&state.to_value()).unwrap();
        prop_assert_eq!(&State::read("round trip", &text).unwrap(), &state);
        for format in [Format::Json, Format::Yaml] {
            let rendered = render(&state, format);
            let read_back = State::read("rendered", &rendered.text).unwrap();
            prop_assert_eq!(read_back.objects(), state.objects(), "{}", rendered.text);
            for (key, lines) in &rendered.lines {
                let block: Vec<&str> = rendered.text.lines().skip(lines.start).take(lines.len()).collect();
                let name = key.rsplit('/').next().unwrap();
                prop_assert!(block.iter().any(|line| line.contains(name)), "the lines of {} name it", key);
            }
        }
    }
}
