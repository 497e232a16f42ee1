//! Runs one fuzz target. Proptest draws the inputs; each runs under
//! `catch_unwind`, timed, with a watchdog beside it. A panic, a law that does
//! not hold, or an input still running after `HANG_LIMIT` fails the target
//! with the input saved in `target/fuzz-failures/`. At the end it prints the
//! inputs run, how many were accepted and rejected, the slowest (saved in
//! `target/fuzz-slowest/`), the time and the peak memory, and fails if that
//! peak passed `MAX_PEAK_RSS_BYTES`, or if fewer inputs than the target's
//! least share were accepted: a mutator that only makes inputs the readers
//! refuse tests their errors alone.

use proptest::strategy::Strategy;
use proptest::test_runner::{Config, RngSeed, TestCaseError, TestRunner};
use std::cell::{Cell, RefCell};
use std::collections::BTreeMap;
use std::fmt;
use std::fs::File;
use std::io::{Seek, Write};
use std::panic::{self, AssertUnwindSafe};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, Once};
use std::thread::{self, JoinHandle};
use std::time::{Duration, Instant, SystemTime};

/// Inputs per target when `FUZZ_CASES` is not set: enough for a regression
/// to show in a normal `cargo test`, in well under a minute.
const DEFAULT_CASES: u32 = 2_000;

/// An input still running after this long hangs. A hang detector, not a
/// speed check: the slowest input is printed, never asserted. Unoptimized
/// builds (a plain `cargo test`) run about ten times slower.
const HANG_LIMIT: Duration = Duration::from_secs(if cfg!(debug_assertions) { 30 } else { 5 });

/// The most memory the test process may have held at its peak.
const MAX_PEAK_RSS_BYTES: u64 = 2 * 1024 * 1024 * 1024;

/// Shrinking a failing input stops after this many tries: the input is
/// saved either way.
const MAX_SHRINK_ITERS: u32 = 256;

use gitops_fuzz::{Outcome, Verdict};

pub trait Input: fmt::Debug + Send + Sync + 'static {
    /// The input's texts, each with the extension of the file it is saved as.
    fn parts(&self) -> Vec<(&'static str, &str)>;

    fn size(&self) -> usize {
        self.parts().iter().map(|(_, text)| text.len()).sum()
    }
}

impl Input for String {
    fn parts(&self) -> Vec<(&'static str, &str)> {
        vec![("txt", self)]
    }
}

/// Feeds `target` the inputs `strategy` draws, `FUZZ_CASES` of them, of
/// which at least `least_accepted` (a share, 0 to 1) must be accepted.
pub fn fuzz<I: Input, S: Strategy<Value = I>>(
    target: &'static str,
    least_accepted: f64,
    strategy: S,
    run: impl Fn(&I) -> Outcome,
) {
    install_panic_hook();
    let seed = seed();
    let mut runner = TestRunner::new(config(cases(), seed));
    let watchdog = Watchdog::start(target);
    let stats = RefCell::new(Stats::default());
    let failure = RefCell::new(None);
    let started = Instant::now();
    let result = runner.run(&strategy, |input| {
        let input = Arc::new(input);
        let (outcome, elapsed) = watchdog.time(input.clone(), || catching(|| run(&input)));
        stats.borrow_mut().record(&outcome, elapsed, &input);
        let why = match outcome {
            Ok(Ok(_)) => return Ok(()),
            Ok(Err(law)) => format!("a law does not hold: {law}"),
            Err(panic) => format!("it panicked: {panic}"),
        };
        *failure.borrow_mut() = Some((input, why.clone()));
        Err(TestCaseError::fail(why))
    });
    drop(watchdog);
    let peak = peak_rss_bytes();
    let stats = stats.into_inner();
    println!("{}", stats.summary(target, seed, started.elapsed(), peak));
    if let Some(slowest) = &stats.slowest_input {
        save("fuzz-slowest", target, &**slowest);
    }
    if result.is_err() {
        let (input, why) = failure.into_inner().expect("a failing input");
        let saved = save("fuzz-failures", &failure_name(target, &*input), &*input);
        panic!(
            "fuzz {target}: {why}\nthe input is saved in {saved:?}:\n{}",
            preview(&*input)
        );
    }
    let accepted = stats.accepted as f64 / stats.inputs.max(1) as f64;
    assert!(
        accepted >= least_accepted,
        "fuzz {target}: {:.1}% of the inputs were accepted, under the least share of {:.1}%: \
         the mutations reach the readers' errors and little past them",
        accepted * 100.0,
        least_accepted * 100.0
    );
    if let Some(peak) = peak {
        assert!(
            peak <= MAX_PEAK_RSS_BYTES,
            "fuzz {target}: the process held {} at its peak",
            megabytes(peak)
        );
    }
}

fn cases() -> u32 {
    std::env::var("FUZZ_CASES").map_or(DEFAULT_CASES, |cases| {
        cases
            .replace('_', "")
            .parse()
            .expect("FUZZ_CASES is a number of inputs")
    })
}

/// `FUZZ_SEED` repeats a run; without it each run draws new inputs.
fn seed() -> u64 {
    std::env::var("FUZZ_SEED").map_or_else(
        |_| {
            let now = SystemTime::now()
                .duration_since(SystemTime::UNIX_EPOCH)
                .unwrap_or_default();
            now.as_nanos() as u64
        },
        |seed| seed.parse().expect("FUZZ_SEED is a number"),
    )
}

fn config(cases: u32, seed: u64) -> Config {
    Config {
        cases,
        failure_persistence: None,
        max_shrink_iters: MAX_SHRINK_ITERS,
        rng_seed: RngSeed::Fixed(seed),
        ..Config::default()
    }
}

#[derive(Default)]
struct Stats {
    inputs: u64,
    accepted: u64,
    rejected: u64,
    failed: u64,
    slowest: Duration,
    slowest_input: Option<Arc<dyn Input>>,
}

impl Stats {
    fn record<I: Input>(
        &mut self,
        outcome: &Result<Outcome, String>,
        elapsed: Duration,
        input: &Arc<I>,
    ) {
        self.inputs += 1;
        match outcome {
            Ok(Ok(Verdict::Accepted)) => self.accepted += 1,
            Ok(Ok(Verdict::Rejected)) => self.rejected += 1,
            _ => self.failed += 1,
        }
        if elapsed > self.slowest {
            self.slowest = elapsed;
            self.slowest_input = Some(input.clone());
        }
    }

    fn slowest_size(&self) -> usize {
        self.slowest_input.as_ref().map_or(0, |input| input.size())
    }

    fn summary(&self, target: &str, seed: u64, total: Duration, peak: Option<u64>) -> String {
        let rate = self.inputs as f64 / total.as_secs_f64().max(1e-9);
        let failed = match self.failed {
            0 => String::new(),
            failed => format!(", {} failed", thousands(failed)),
        };
        format!(
            "fuzz {target}: {} inputs (FUZZ_SEED={seed}): {} accepted, {} rejected{failed}; \
             slowest {:.1} ms ({} bytes); {:.1} s, {} inputs/s; peak RSS {}",
            thousands(self.inputs),
            thousands(self.accepted),
            thousands(self.rejected),
            self.slowest.as_secs_f64() * 1000.0,
            thousands(self.slowest_size() as u64),
            total.as_secs_f64(),
            thousands(rate as u64),
            peak.map_or("unknown".into(), megabytes),
        )
    }
}

fn thousands(number: u64) -> String {
    let digits = number.to_string();
    let mut grouped = String::new();
    for (position, digit) in digits.chars().enumerate() {
        if position > 0 && (digits.len() - position).is_multiple_of(3) {
            grouped.push(',');
        }
        grouped.push(digit);
    }
    grouped
}

fn megabytes(bytes: u64) -> String {
    format!("{} MB", bytes / (1024 * 1024))
}

/// The most memory the process has held (`VmHWM`), where Linux says it.
fn peak_rss_bytes() -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|line| line.starts_with("VmHWM:"))?;
    let kilobytes: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kilobytes * 1024)
}

thread_local! {
    static CATCHING: Cell<bool> = const { Cell::new(false) };
    static LAST_PANIC: RefCell<Option<String>> = const { RefCell::new(None) };
}

/// While an input runs, a panic's message and place are kept for the
/// report instead of printed; elsewhere panics print as usual.
fn install_panic_hook() {
    static INSTALL: Once = Once::new();
    INSTALL.call_once(|| {
        let previous = panic::take_hook();
        panic::set_hook(Box::new(move |info| match CATCHING.get() {
            true => LAST_PANIC.set(Some(info.to_string())),
            false => previous(info),
        }));
    });
}

fn catching<T>(run: impl FnOnce() -> T) -> Result<T, String> {
    CATCHING.set(true);
    let result = panic::catch_unwind(AssertUnwindSafe(run));
    CATCHING.set(false);
    result.map_err(|_| {
        LAST_PANIC
            .take()
            .unwrap_or_else(|| "a panic without a message".into())
    })
}

type Running = Option<(Instant, Arc<dyn Input>)>;

/// Watches the input being run. It is on disk while it runs, as
/// `target/fuzz-failures/<target>-in-flight-<process>.*`, so that a crash
/// nothing can unwind (a stack overflow, the out-of-memory killer) leaves it
/// behind; the files go once the target is done. One still running after
/// `HANG_LIMIT` is saved and the process stops, since a hung thread cannot
/// be unwound.
struct Watchdog {
    running: Arc<Mutex<Running>>,
    in_flight: InFlight,
    stop: Arc<AtomicBool>,
    thread: Option<JoinHandle<()>>,
}

impl Watchdog {
    fn start(target: &'static str) -> Self {
        let running: Arc<Mutex<Running>> = Arc::default();
        let stop = Arc::new(AtomicBool::new(false));
        let watched = (running.clone(), stop.clone());
        let thread = thread::spawn(move || {
            let (running, stop) = watched;
            while !stop.load(Ordering::Relaxed) {
                thread::sleep(Duration::from_millis(100));
                if let Some((started, input)) = &*running.lock().unwrap() {
                    if started.elapsed() > HANG_LIMIT {
                        let saved =
                            save("fuzz-failures", &failure_name(target, &**input), &**input);
                        eprintln!("fuzz {target}: an input has run for more than {HANG_LIMIT:?}; it is saved in {saved:?}");
                        std::process::abort();
                    }
                }
            }
        });
        Watchdog {
            running,
            in_flight: InFlight::new(target),
            stop,
            thread: Some(thread),
        }
    }

    fn time<T>(&self, input: Arc<dyn Input>, run: impl FnOnce() -> T) -> (T, Duration) {
        self.in_flight.write(&*input);
        *self.running.lock().unwrap() = Some((Instant::now(), input));
        let result = run();
        let (started, _) = self
            .running
            .lock()
            .unwrap()
            .take()
            .expect("the input being run");
        (result, started.elapsed())
    }
}

impl Drop for Watchdog {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::Relaxed);
        if let Some(thread) = self.thread.take() {
            let _ = thread.join();
        }
        self.in_flight.remove();
    }
}

/// The files of the input in flight, kept open: rewriting them takes a few
/// system calls per input.
struct InFlight {
    name: String,
    files: RefCell<BTreeMap<&'static str, (PathBuf, File)>>,
}

impl InFlight {
    fn new(target: &str) -> Self {
        InFlight {
            name: format!("{target}-in-flight-{}", std::process::id()),
            files: RefCell::default(),
        }
    }

    fn write(&self, input: &dyn Input) {
        let mut files = self.files.borrow_mut();
        for (extension, text) in input.parts() {
            let (_, file) = files.entry(extension).or_insert_with(|| {
                let path = directory("fuzz-failures").join(format!("{}.{extension}", self.name));
                let file = File::create(&path).expect("the input in flight can be written");
                (path, file)
            });
            file.rewind()
                .and_then(|()| file.write_all(text.as_bytes()))
                .and_then(|()| file.set_len(text.len() as u64))
                .expect("the input in flight can be written");
        }
    }

    fn remove(&self) {
        for (path, _) in self.files.take().into_values() {
            let _ = std::fs::remove_file(path);
        }
    }
}

/// A failing input's name: its target and a hash of the input.
fn failure_name(target: &str, input: &dyn Input) -> String {
    use std::hash::{DefaultHasher, Hash, Hasher};
    let mut hasher = DefaultHasher::new();
    input.parts().hash(&mut hasher);
    format!("{target}-{:016x}", hasher.finish())
}

/// `target/<name>/`, beside the tests' own temporary directory, made if
/// need be.
fn directory(name: &str) -> PathBuf {
    let cargo_target = Path::new(env!("CARGO_TARGET_TMPDIR"))
        .parent()
        .expect("the target directory");
    let directory = cargo_target.join(name);
    std::fs::create_dir_all(&directory).expect("the directory for inputs can be made");
    directory
}

/// Writes each part of `input` to `target/<directory>/<name>.<part>`.
fn save(directory_name: &str, name: &str, input: &dyn Input) -> Vec<PathBuf> {
    let directory = directory(directory_name);
    input
        .parts()
        .into_iter()
        .map(|(extension, text)| {
            let path = directory.join(format!("{name}.{extension}"));
            std::fs::write(&path, text).expect("an input can be saved");
            path
        })
        .collect()
}

/// The input as Rust would write it, cut short past 4,000 characters.
fn preview(input: &dyn Input) -> String {
    let mut text = format!("{input:?}");
    if let Some((cut, _)) = text.char_indices().nth(4_000) {
        text.truncate(cut);
        text.push_str("...");
    }
    text
}
