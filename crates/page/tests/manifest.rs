//! The Options as the agent's manifest: what an Argo CD Application's
//! syncPolicy says for them, marked where it is not Argo CD's default, and
//! what Flux's Kustomization says of the same choices.

use gitops_page::manifest::{argo_cd_application, flux_kustomization, ManifestLine};
use gitops_world::scenario::{Mode, WorldOptions};

fn text(lines: &[ManifestLine]) -> Vec<&str> {
    lines.iter().map(|line| line.text.trim_end()).collect()
}

fn marked(lines: &[ManifestLine]) -> Vec<&str> {
    lines.iter().filter(|line| line.not_default).map(|line| line.text.split('#').next().unwrap_or("").trim()).collect()
}

#[test]
fn the_playgrounds_defaults_are_an_automated_sync_with_self_heal_which_argo_cd_does_not_default_to() {
    let options = WorldOptions::default();
    let application = argo_cd_application(&options);
    assert!(text(&application).contains(&"kind: Application"));
    assert_eq!(marked(&application), ["automated:", "selfHeal: true"], "{:#?}", text(&application));
    assert!(text(&application).contains(&"    prune: false"), "prune off is Argo CD's default, said as it is: {:#?}", text(&application));
}

#[test]
fn ticking_the_boxes_changes_the_manifest_and_its_marks() {
    let mut options = WorldOptions { prune: true, respect_ignore_differences: true, ..WorldOptions::default() };
    let application = argo_cd_application(&options);
    assert_eq!(marked(&application), ["automated:", "prune: true", "selfHeal: true", "syncOptions: [RespectIgnoreDifferences=true]"]);
    let server_side = WorldOptions { server_side_apply: true, ..options.clone() };
    assert!(marked(&argo_cd_application(&server_side)).contains(&"syncOptions: [RespectIgnoreDifferences=true, ServerSideApply=true]"));
    options.auto_sync = false;
    options.self_heal = false;
    let manual = argo_cd_application(&options);
    assert!(text(&manual).iter().all(|line| !line.contains("automated:")), "{:#?}", text(&manual));
    assert!(text(&manual).iter().any(|line| line.contains("argocd app sync --prune")), "a person's sync prunes: {:#?}", text(&manual));
    let flux = flux_kustomization(&options);
    assert_eq!(marked(&flux), ["suspend: true"], "auto-sync off is a suspended Kustomization");
    assert!(text(&flux).contains(&"  prune: true            # required: Flux has no default"));
}

#[test]
fn in_push_mode_there_is_no_application() {
    let options = WorldOptions { mode: Mode::Push, ..WorldOptions::default() };
    let application = argo_cd_application(&options);
    assert_eq!(application.len(), 1);
    assert!(application[0].text.contains("no agent and no Application"));
}

#[test]
fn the_options_say_which_environments_their_applications_in_git_set() {
    use gitops_world::scenario::Scenario;
    let application = "apiVersion: argoproj.io/v1alpha1\nkind: Application\nmetadata: {name: prod}\nspec: {source: {path: envs/prod}}\n";
    let text = serde_json::json!({"repository": {"files": {"apps/prod.yaml": application, "envs/prod/c.yaml": "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: c}\n"}}, "applications": "apps"});
    let scenario = Scenario::parse("apps.json", &text.to_string()).unwrap();
    assert_eq!(
        gitops_page::manifest::applications_in_git(&scenario.options).as_deref(),
        Some("prod: their Applications in Git set their sync policy, destination and ignoreDifferences; these options fill in what an Application does not say. In Argo CD 3.x an Application has no health, so no wave of them waits for another (applicationHealthCheck).")
    );
    assert_eq!(gitops_page::manifest::applications_in_git(&WorldOptions::default()), None);
    let mut checked = scenario.options.clone();
    checked.application_health_check = true;
    let said = gitops_page::manifest::applications_in_git(&checked).unwrap_or_default();
    assert!(said.ends_with("a wave of them waits for the waves before to be Healthy."), "{said}");
}
