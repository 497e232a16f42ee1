//! `gitops-sim package`: a SCORM 1.2 package of exercises, for a course's LMS
//! to import as it imports any: a zip with `imsmanifest.xml` at its root, one
//! launch page a exercise (a SCO, with `scorm.js`), and the playground's
//! release build under `playground/`, which works offline in it.

use gitops_world::attempt;
use gitops_world::scenario::Scenario;
use gitops_world::share::{encode_link, Session};
use std::io::Write;
use std::path::{Path, PathBuf};
use zip::write::SimpleFileOptions;
use zip::{CompressionMethod, DateTime, ZipWriter};

const LAUNCH_PAGE: &str = include_str!("scorm/launch.html");
const LAUNCH_SCRIPT: &str = include_str!("scorm/scorm.js");

/// One exercise of the package: its launch page's name, title and start link.
struct Sco {
    page: String,
    title: String,
    link: String,
}

/// Writes the package of `exercises` with the playground built in `playground`
/// to `out`; what it wrote, for the person who asked.
pub fn package(exercises: &[String], playground: &Path, out: &Path, title: Option<&str>) -> Result<String, String> {
    check_release_build(playground)?;
    let mut scos: Vec<Sco> = Vec::new();
    for file in exercises {
        let sco = sco_of(file, playground, &scos)?;
        scos.push(sco);
    }
    let course = title.map_or_else(|| scos[0].title.clone(), str::to_string);
    let files = files_under(playground)?;
    let mut zip = ZipWriter::new(std::fs::File::create(out).map_err(|error| format!("{}: cannot write it: {error}", out.display()))?);
    let mut add = |name: &str, bytes: &[u8]| -> Result<(), String> {
        // Packed files stay as they are; a fixed time makes the same package twice alike.
        let method = match name.ends_with(".xz") {
            true => CompressionMethod::Stored,
            false => CompressionMethod::Deflated,
        };
        let options = SimpleFileOptions::default().compression_method(method).last_modified_time(DateTime::default());
        zip.start_file(name, options).map_err(|error| format!("{}: {error}", out.display()))?;
        zip.write_all(bytes).map_err(|error| format!("{}: {error}", out.display()))
    };
    add("imsmanifest.xml", manifest(&course, &scos, &files).as_bytes())?;
    add("scorm.js", LAUNCH_SCRIPT.as_bytes())?;
    for sco in &scos {
        let page = LAUNCH_PAGE.replace("{title}", &escaped(&sco.title)).replace("{link}", &escaped(&sco.link));
        add(&sco.page, page.as_bytes())?;
    }
    for file in &files {
        let bytes = std::fs::read(playground.join(file)).map_err(|error| format!("{}: cannot read it: {error}", playground.join(file).display()))?;
        add(&format!("playground/{file}"), &bytes)?;
    }
    zip.finish().map_err(|error| format!("{}: {error}", out.display()))?;
    Ok(format!("wrote {}: {} exercise(s) of \"{course}\", the playground's {} files", out.display(), scos.len(), files.len()))
}

/// The playground's release build, as `./scripts/serve` makes it: its page,
/// its packed wasm and its service worker, which a development build lacks.
fn check_release_build(playground: &Path) -> Result<(), String> {
    let names: Vec<String> = std::fs::read_dir(playground)
        .map_err(|error| format!("--playground {}: cannot read it: {error} (build it with ./scripts/serve, which writes dist/)", playground.display()))?
        .filter_map(|entry| entry.ok()?.file_name().into_string().ok())
        .collect();
    let release = names.iter().any(|name| name == "index.html") && names.iter().any(|name| name.ends_with("_bg.wasm.xz"));
    match release {
        true => Ok(()),
        false => Err(format!(
            "--playground {}: it is not the playground's release build (no index.html beside a packed *_bg.wasm.xz); ./scripts/serve builds it into dist/",
            playground.display()
        )),
    }
}

/// The launch page of the exercise in `file`: it opens the playground's own
/// exercise by its file when the build holds the same text (a short link),
/// else carries the exercise whole.
fn sco_of(file: &str, playground: &Path, before: &[Sco]) -> Result<Sco, String> {
    let text = std::fs::read_to_string(file).map_err(|error| format!("{file}: cannot read it: {error}"))?;
    let scenario = Scenario::parse(file, &text).map_err(|error| error.to_string())?;
    let exercise = scenario.exercise.as_ref().ok_or_else(|| format!("{file}: it has no `exercise` block"))?;
    let presets = playground.join("presets");
    let find_preset = |name: &str| std::fs::read_to_string(presets.join(name)).map_err(|error| format!("{}: {error}", presets.join(name).display()));
    attempt::validate_questions(file, exercise, &find_preset).map_err(|error| error.to_string())?;
    let name = Path::new(file).file_name().and_then(|name| name.to_str()).unwrap_or("exercise.yaml");
    let built = std::fs::read_to_string(playground.join("exercises").join(name)).ok();
    let session = match built.as_deref() == Some(text.as_str()) {
        true => Session::of_preset(&format!("exercises/{name}")),
        false => Session::of_scenario(&text),
    };
    let link = format!("#{}", encode_link(&session).map_err(|error| format!("{file}: {error}"))?);
    let stem: String = Path::new(name)
        .file_stem()
        .and_then(|stem| stem.to_str())
        .unwrap_or("exercise")
        .chars()
        .map(|c| if c.is_ascii_alphanumeric() || c == '-' { c.to_ascii_lowercase() } else { '-' })
        .collect();
    let taken = |page: &str| before.iter().any(|sco| sco.page == page);
    let page = (1..).map(|n| match n { 1 => format!("{stem}.html"), n => format!("{stem}-{n}.html") }).find(|page| !taken(page)).unwrap_or_default();
    let title = scenario.title.clone().filter(|title| !title.is_empty()).unwrap_or_else(|| stem.clone());
    Ok(Sco { page, title, link })
}

/// Every file under `root`, by its path relative to it with `/`, in order.
fn files_under(root: &Path) -> Result<Vec<String>, String> {
    let mut files = Vec::new();
    let mut folders: Vec<PathBuf> = vec![root.to_path_buf()];
    while let Some(folder) = folders.pop() {
        let entries = std::fs::read_dir(&folder).map_err(|error| format!("{}: cannot read it: {error}", folder.display()))?;
        for entry in entries {
            let path = entry.map_err(|error| format!("{}: {error}", folder.display()))?.path();
            // Not a build's hidden files, such as Trunk's staging folder mid-build.
            if path.file_name().is_some_and(|name| name.to_string_lossy().starts_with('.')) {
                continue;
            }
            if path.is_dir() {
                folders.push(path);
            } else if let Ok(relative) = path.strip_prefix(root) {
                let parts: Vec<String> = relative.components().map(|part| part.as_os_str().to_string_lossy().into_owned()).collect();
                files.push(parts.join("/"));
            }
        }
    }
    files.sort();
    Ok(files)
}

/// `imsmanifest.xml`: one organization of the course, an item a exercise (a
/// SCO whose mastery is every goal held), and the playground as an asset.
fn manifest(course: &str, scos: &[Sco], files: &[String]) -> String {
    let items: String = scos
        .iter()
        .enumerate()
        .map(|(index, sco)| {
            format!(
                "      <item identifier=\"item-{index}\" identifierref=\"sco-{index}\" isvisible=\"true\">\n        <title>{}</title>\n        <adlcp:masteryscore>100</adlcp:masteryscore>\n      </item>\n",
                escaped(&sco.title)
            )
        })
        .collect();
    let resources: String = scos
        .iter()
        .enumerate()
        .map(|(index, sco)| {
            format!(
                "    <resource identifier=\"sco-{index}\" type=\"webcontent\" adlcp:scormtype=\"sco\" href=\"{page}\">\n      <file href=\"{page}\"/>\n      <file href=\"scorm.js\"/>\n      <dependency identifierref=\"playground\"/>\n    </resource>\n",
                page = escaped(&sco.page)
            )
        })
        .collect();
    let playground: String = files.iter().map(|file| format!("      <file href=\"playground/{}\"/>\n", escaped(file))).collect();
    format!(
        r#"<?xml version="1.0" encoding="UTF-8"?>
<manifest identifier="gitops-playground-course" version="1.0"
  xmlns="http://www.imsproject.org/xsd/imscp_rootv1p1p2"
  xmlns:adlcp="http://www.adlnet.org/xsd/adlcp_rootv1p2"
  xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance"
  xsi:schemaLocation="http://www.imsproject.org/xsd/imscp_rootv1p1p2 imscp_rootv1p1p2.xsd http://www.adlnet.org/xsd/adlcp_rootv1p2 adlcp_rootv1p2.xsd">
  <metadata>
    <schema>ADL SCORM</schema>
    <schemaversion>1.2</schemaversion>
  </metadata>
  <organizations default="course">
    <organization identifier="course">
      <title>{course}</title>
{items}    </organization>
  </organizations>
  <resources>
{resources}    <resource identifier="playground" type="webcontent" adlcp:scormtype="asset">
{playground}    </resource>
  </resources>
</manifest>
"#,
        course = escaped(course)
    )
}

/// Text as XML and HTML attribute values and content take it.
fn escaped(text: &str) -> String {
    text.replace('&', "&amp;").replace('<', "&lt;").replace('>', "&gt;").replace('"', "&quot;").replace('\'', "&#39;")
}
