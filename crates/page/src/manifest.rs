//! The Options as the agent's own manifest: the part of an Argo CD
//! `Application` they set (argo-cd `pkg/apis/application/v1alpha1/types.go`,
//! `SyncPolicy` and `SyncPolicyAutomated`), each line marked where it differs
//! from Argo CD's default, and what Flux's `Kustomization` says of the same
//! choices (kustomize-controller `api/v1/kustomization_types.go`).

use gitops_world::scenario::{Mode, WorldOptions};

/// One line of a manifest, and whether it sets what the tool would not by default.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ManifestLine {
    pub text: String,
    pub not_default: bool,
}

/// Which environments an Application in Git declares, whose sync policy is
/// its own rather than these options' (`WorldOptions::of`); none without.
pub fn applications_in_git(options: &WorldOptions) -> Option<String> {
    let names: Vec<&str> = options.applications.iter().map(|(name, _)| name.as_str()).collect();
    let waits = match options.application_health_check {
        true => " With applicationHealthCheck, a wave of them waits for the waves before to be Healthy.",
        false => " In Argo CD 3.x an Application has no health, so no wave of them waits for another (applicationHealthCheck).",
    };
    (!names.is_empty()).then(|| format!(
        "{}: their Applications in Git set their sync policy, destination and ignoreDifferences; these options fill in what an Application does not say.{waits}",
        names.join(", ")
    ))
}

/// The Application's `spec` that these options write, line by line; in push
/// mode there is no agent and no Application, which the one line says.
pub fn argo_cd_application(options: &WorldOptions) -> Vec<ManifestLine> {
    let line = |text: String, not_default: bool| ManifestLine { text, not_default };
    let plain = |text: &str| line(text.to_string(), false);
    if options.mode == Mode::Push {
        return vec![plain(
            "# Push: no agent and no Application; CI runs kubectl apply with the cluster's credential",
        )];
    }
    let mut lines = vec![
        plain("apiVersion: argoproj.io/v1alpha1"),
        plain("kind: Application"),
        line(format!("metadata: {{name: {}, namespace: argocd}}", options.application), false),
        plain("spec:"),
        plain("  syncPolicy:"),
    ];
    if options.auto_sync {
        lines.push(line("  automated:            # auto-sync; Argo CD's default: none (a person syncs)".into(), true));
        lines.push(line(format!("    prune: {}{}", options.prune, default_false(options.prune)), options.prune));
        lines.push(line(format!("    selfHeal: {}{}", options.self_heal, default_false(options.self_heal)), options.self_heal));
    } else {
        lines.push(plain("  # no automated sync: a person syncs (Argo CD's default)"));
        if options.prune {
            lines.push(line("  # prune: a person's sync prunes (the sync's Prune box, argocd app sync --prune)".into(), true));
        }
        if options.self_heal {
            lines.push(plain("  # selfHeal has no effect without automated: nothing reverts drift"));
        }
    }
    let sync_options: Vec<&str> = [
        (options.respect_ignore_differences, "RespectIgnoreDifferences=true"),
        (options.server_side_apply, "ServerSideApply=true"),
    ]
    .into_iter()
    .filter_map(|(on, option)| on.then_some(option))
    .collect();
    if !sync_options.is_empty() {
        lines.push(line(format!("  syncOptions: [{}]   # Argo CD's default: none", sync_options.join(", ")), true));
    }
    if !options.ignore.is_empty() {
        let count = options.ignore.len();
        let rules = if count == 1 { "rule" } else { "rules" };
        lines.push(line(format!("  ignoreDifferences:     # the {count} {rules} under Ignore rules"), true));
    }
    lines
}

/// What Flux's Kustomization says of the same choices: its own defaults,
/// for a lesson that teaches it.
pub fn flux_kustomization(options: &WorldOptions) -> Vec<ManifestLine> {
    let line = |text: String, not_default: bool| ManifestLine { text, not_default };
    vec![
        line("apiVersion: kustomize.toolkit.fluxcd.io/v1".into(), false),
        line("kind: Kustomization".into(), false),
        line("spec:".into(), false),
        line(format!("  interval: {}m           # how often it reads Git and applies", options.poll_every), false),
        line(format!("  prune: {}            # required: Flux has no default", options.prune), false),
        line(
            format!("  suspend: {}          # auto-sync off; Flux's default: false", !options.auto_sync),
            !options.auto_sync,
        ),
        line("  # no self-heal switch: Flux corrects drift at every interval".into(), false),
    ]
}

fn default_false(value: bool) -> &'static str {
    match value {
        true => "          # Argo CD's default: false",
        false => "",
    }
}
