use super::code_spans::code_spans;
use gitops_page::Progress;
use gitops_world::attempt::{Checked, Outcome};
use gitops_world::scenario::Scenario;
use std::rc::Rc;
use yew::prelude::*;

pub struct ExercisePanelProps {
    /// The scenario whose exercise this is.
    pub scenario: Rc<Scenario>,
    pub progress: Progress,
    pub answers: Vec<Option<usize>>,
    pub checked: Option<Rc<Checked>>,
    /// The ignore rules that select no object, said with a check that fails.
    pub ignore_notes: Vec<String>,
    /// Whether the Desired pane holds a working copy Git does not, which a check does not see.
    pub uncommitted: bool,
    pub on_hint: Callback<()>,
    pub on_answer: Callback<(usize, usize)>,
    pub on_check: Callback<()>,
}

/// The task, hints one at a time, the questions, and the check.
pub fn exercise_panel(props: &ExercisePanelProps) -> Html {
    let Some(exercise) = &props.scenario.exercise else {
        return Html::default();
    };
    let shown = props.progress.hints.min(exercise.hints.len());
    let left = exercise.hints.len() - shown;
    let on_hint = props.on_hint.reform(|_: MouseEvent| ());
    let on_check = props.on_check.reform(|_: MouseEvent| ());
    html! {
        <section class="exercise" aria-labelledby="exercise-title">
            <h2 id="exercise-title">{ "Exercise" }</h2>
            <p class="task">{ &exercise.task }</p>
            if props.progress.solved && !props.checked.as_ref().is_some_and(|checked| checked.solved) {
                <p class="solved-badge">{ "You have solved this exercise before." }</p>
            }
            if shown > 0 {
                <ol class="hints" aria-label="Hints">
                    { for exercise.hints[..shown].iter().map(|hint| html! { <li>{ hint }</li> }) }
                </ol>
            }
            if !exercise.hints.is_empty() {
                <button onclick={on_hint} disabled={left == 0}>
                    { if left == 0 { "No more hints".to_string() } else { format!("Show a hint ({left} left)") } }
                </button>
            }
            { for exercise.questions.iter().enumerate().map(|(index, question)| question_view(index, question, props)) }
            <p><button class="primary" onclick={on_check}>{ "Check" }</button></p>
            if let Some(checked) = &props.checked {
                { results(checked) }
                if !checked.solved {
                    { for props.ignore_notes.iter().map(|note| html! { <p class="ignore-note">{ code_spans(note) }</p> }) }
                    if props.uncommitted {
                        <p class="ignore-note">{ "Your working copy in the Desired pane is not committed, and Check sees what Git holds: commit it (Ctrl/Cmd+S), then check again." }</p>
                    }
                }
            }
        </section>
    }
}

fn question_view(
    index: usize,
    question: &gitops_world::exercise::Question,
    props: &ExercisePanelProps,
) -> Html {
    let chosen = props.answers.get(index).copied().flatten();
    html! {
        <fieldset class="question">
            <legend>{ &question.ask }</legend>
            { for question.choices.iter().enumerate().map(|(choice, option)| {
                let onchange = props.on_answer.reform(move |_: Event| (index, choice));
                html! {
                    <label class="check">
                        <input type="radio" name={format!("question-{index}")} checked={chosen == Some(choice)} {onchange} />
                        { &option.text }
                    </label>
                }
            }) }
        </fieldset>
    }
}

fn results(checked: &Checked) -> Html {
    let outcomes: Vec<&Outcome> = checked.goals.iter().chain(&checked.questions).collect();
    let failing = outcomes.iter().filter(|outcome| !outcome.passed).count();
    html! {
        <div class="results-check">
            <p role="status" class={classes!("verdict", checked.solved.then_some("solved"))}>
                { if checked.solved { "Solved: every goal holds. Share your solution with the Share button.".to_string() } else { format!("Not yet: {failing} of {} do not hold.", outcomes.len()) } }
            </p>
            <ul class="outcomes" aria-label="Goals">
                { for outcomes.iter().map(|outcome| html! {
                    <li class={if outcome.passed { "pass" } else { "fail" }}>
                        <span class="mark">{ if outcome.passed { "✓ holds" } else { "✗ does not hold" } }</span>
                        { " " }<strong>{ &outcome.what }</strong>{ ": " }{ code_spans(&outcome.why) }
                    </li>
                }) }
            </ul>
        </div>
    }
}
