use crate::ui::embed::{use_embed_messages, EmbedState, Embedding};
use crate::ui::embedded_page::EmbeddedPage;
use crate::ui::full_page::FullPage;
use crate::ui::effects::{
    use_followed_links, use_keyboard_shortcuts, use_make_link, use_play_timer, use_presets_when_wanted,
    use_save_progress, use_save_work, use_settle_after_typing, use_share_link, use_start,
    use_theme,
};
use crate::ui::ptr_eq::PtrEq;
use crate::ui::reducer::{ModelHandle, PageModel};
use crate::ui::start::Start;
use gitops_page::Model;
use yew::prelude::*;

#[derive(Properties, PartialEq, Default)]
pub struct AppProps {
    /// The model the page starts with, read before it mounts (`Start::read`). Without
    /// one (a page mounted alone, as tests mount it), the page starts on the first
    /// preset with no saved work or link, and loads its menu itself.
    #[prop_or_default]
    pub start: Start,
}

/// The playground, or, in a lesson's iframe (`?embed=1`), its compact view.
#[function_component(App)]
pub fn app(props: &AppProps) -> Html {
    let model = use_reducer(|| {
        PageModel(props.start.take().unwrap_or_else(|| {
            Model::new(
                crate::ui::effects::saved_theme(),
                Default::default(),
                crate::ui::storage::load_progress(),
            )
        }))
    });
    let embedding = use_memo((), |()| Embedding::from_location());
    let dispatch = model.dispatcher();
    use_start(model.loading.start_is_over(), dispatch.clone());
    use_presets_when_wanted(model.loading.wants_presets(), dispatch.clone());
    use_followed_links(dispatch.clone());
    use_save_work(
        model.work.saved.clone(),
        model.work.saved_key(),
        props.start.changed_work,
        dispatch.clone(),
    );
    use_share_link(
        model
            .work
            .shared
            .as_ref()
            .and_then(|shared| shared.fragment.clone()?.ok()),
    );
    use_make_link(
        model
            .work
            .shared
            .as_ref()
            .filter(|shared| shared.fragment.is_none())
            .map(|_| model.work.session.clone()),
        dispatch.clone(),
    );
    // A lesson's `&theme=` colours the embedded page without changing the reader's own choice.
    let lesson_theme = embedding.as_ref().as_ref().and_then(|embedding| embedding.theme);
    use_theme(
        lesson_theme.unwrap_or(model.view.theme),
        lesson_theme.is_none(),
    );
    use_save_progress(model.work.progress.clone());
    use_play_timer(
        model.playback.playing,
        model.playback.speed,
        dispatch.clone(),
    );
    use_settle_after_typing(model.panes.typing(), dispatch.clone());
    use_keyboard_shortcuts(dispatch.clone());
    // Only an embedded page tells its host its state (with a link, which costs an encoding),
    // from the end of the start on: a host that answers the first state with a
    // `gitops:load` finds the presets loaded, and the iframe's own link does not replace it.
    // The exercise's goals as Check finds them, worked out again only when the work changes.
    let judged = {
        let work = (embedding.is_some(), PtrEq(model.scenario.clone()), model.work.session.interactions.clone(), model.work.answers.clone());
        let model = model.clone();
        use_memo(work, move |(embedded, ..)| embedded.then(|| model.judged()).flatten())
    };
    let state = embedding
        .as_ref()
        .as_ref()
        .filter(|_| model.loading.start_is_over())
        .and_then(|_| EmbedState::of(&model, judged.as_ref().as_ref()));
    let failure = embedding
        .as_ref()
        .as_ref()
        .and(model.loading.failure.clone());
    use_embed_messages(
        (*embedding).clone(),
        model.loading.start_is_over(),
        state,
        failure,
        dispatch,
    );
    match *embedding {
        Some(ref embedding) => {
            html! { <EmbeddedPage model={ModelHandle::new(model)} picture_only={embedding.picture_only} panes={embedding.panes} /> }
        }
        None => html! { <FullPage model={ModelHandle::new(model)} /> },
    }
}
