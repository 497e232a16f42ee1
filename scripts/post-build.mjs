// Trunk's post-build hook (Trunk.toml, [[hooks]] stage = "post_build"): makes the build
// work offline and under a strict Content-Security-Policy. Trunk runs it with Node 20
// from the project root once the page is assembled in the staging directory, before
// moving that to the dist folder; it writes only there (post-build/build.mjs). Its npm
// packages are in scripts/node_modules; each step is a module of scripts/post-build/,
// and they read and edit index.html with an HTML parser (post-build/html.mjs).
//
// The page's URLs start with Trunk's public URL (TRUNK_PUBLIC_URL): `./` by default
// (Trunk.toml), so the build works under any sub-path, or what --public-url gives, such
// as `/courses/gitops/playground/`. The hook maps URLs under it to the build's files.
//
// In order, it:
//   1. checks that the `integrity` attributes Trunk wrote still match their files
//      (integrity.mjs), minifies the wasm modules' glue and the page's snippets, with
//      short import names (glue.mjs), and writes their new integrity; packs the page's
//      wasm with xz beside it (`…_bg.wasm.xz`, a fifth smaller than gzip makes it) and
//      has index.html fetch that and unpack it as it arrives (pack.mjs, with the decoder
//      of xz-decoder.mjs), the plain wasm the fallback; under an absolute public URL,
//      points index.html's register-sw.js and menu.json at it (public-url.mjs);
//   2. packs the API module's wasm with xz too, and writes api.js, the stable module
//      lesson pages import, which unpacks it with the same decoder, and api.d.ts (api.mjs);
//      minifies embed.js, the script that embeds the playground in lesson pages
//      (embed-script.mjs);
//   3. writes register-sw.js (register-sw.mjs), lesson-sw.js, the service worker a course
//      copies next to its lesson pages (lesson-sw.mjs), scenarios.json (scenarios.mjs)
//      and menu.json (menu.mjs);
//   4. writes the first preset's title and explanation into the shell that index.html
//      draws until the page mounts (shell.mjs), and moves the preloads to the start of
//      the head, after the script that preloads the packed wasm (preloads.mjs);
//   5. adds a Content-Security-Policy <meta> to index.html (csp.mjs);
//   6. writes lesson-worker.js, what lesson-sw.js loads from the build, with what api.js
//      loads (precache.mjs, lesson-sw.mjs), then sw.js, the playground's service worker,
//      last, so that its list and version cover the final index.html and lesson-worker.js
//      (precache.mjs, service-worker.mjs).
//
// Under `trunk serve` Trunk adds an inline autoreload script that it rewrites on every
// response (so no hash can allow it) and rebuilds on every change (so a cache-first
// service worker would serve stale files): there the hook neither changes the glue nor
// packs the wasm nor minifies embed.js, adds no CSP, and writes a sw.js,
// lesson-worker.js and register-sw.js that remove any service worker and cache a
// previous build left on that origin. `trunk build` (the tests, a deployment) gets the
// full treatment.

import { writeApi } from './post-build/api.mjs';
import { absolutePublicUrl, publicUrl, readPage, write, writePage } from './post-build/build.mjs';
import { withCsp } from './post-build/csp.mjs';
import { minifyEmbedScript } from './post-build/embed-script.mjs';
import { compactGlue } from './post-build/glue.mjs';
import { inlineScripts, textOf } from './post-build/html.mjs';
import { checkIntegrity, withFreshIntegrity } from './post-build/integrity.mjs';
import { lessonKillSwitchScript, lessonSwScript, lessonWorkerScript } from './post-build/lesson-sw.mjs';
import { scenarioMenu } from './post-build/menu.mjs';
import { shipped } from './post-build/minify.mjs';
import { LESSON_SW, LESSON_WORKER, MENU, SCENARIOS } from './post-build/names.mjs';
import { packedApiModule, withPackedWasm } from './post-build/pack.mjs';
import { lessonPrecacheOfBuild, precacheOfBuild } from './post-build/precache.mjs';
import { withPreloadsFirst } from './post-build/preloads.mjs';
import { withOwnUrlsUnderPublicUrl } from './post-build/public-url.mjs';
import { registerScript, unregisterScript } from './post-build/register-sw.mjs';
import { note } from './post-build/report.mjs';
import { scenarioBundle, scenarioFiles } from './post-build/scenarios.mjs';
import { killSwitchScript, serviceWorkerScript } from './post-build/service-worker.mjs';
import { withFirstScenarioInShell } from './post-build/shell.mjs';

let html = readPage();
const underTrunkServe = inlineScripts(html).some((script) => textOf(script).includes('.well-known/trunk/ws'));

checkIntegrity(html);
/** The script that preloads the packed wasm, first in the head; none under trunk serve. */
let packedPreload = '';
/** The xz decoder's module, which api.js also unpacks the API module with; none under trunk serve. */
let decoder = null;
if (!underTrunkServe) {
  html = withFreshIntegrity(html, await compactGlue());
  ({ page: html, preloadScript: packedPreload, decoder } = await withPackedWasm(html));
  packedApiModule();
  await minifyEmbedScript();
}
if (absolutePublicUrl) html = withOwnUrlsUnderPublicUrl(html);
writeApi(decoder);
write('register-sw.js', await shipped(underTrunkServe ? unregisterScript() : registerScript(), { module: true }));
write(LESSON_SW, await lessonSwScript());
const scenarios = scenarioFiles();
write(SCENARIOS, scenarioBundle(scenarios));
write(MENU, scenarioMenu(scenarios));
html = withPreloadsFirst(withFirstScenarioInShell(html, scenarios), packedPreload);
if (underTrunkServe) {
  writePage(html);
  note('trunk serve: no CSP and no service worker (sw.js removes any a previous build installed)');
  write('sw.js', await killSwitchScript());
  write(LESSON_WORKER, await lessonKillSwitchScript());
} else {
  writePage(withCsp(html));
  const lesson = lessonPrecacheOfBuild();
  write(LESSON_WORKER, await lessonWorkerScript(lesson));
  const { files, precached, version, wasm } = precacheOfBuild();
  write('sw.js', await serviceWorkerScript({ version, precached, wasm }));
  note(`CSP added to index.html; sw.js precaches ${precached.length} of ${files.length} files as version ${version} (public URL ${publicUrl})`);
  note(`${LESSON_WORKER} precaches ${lesson.precached.length} files for lesson pages as version ${lesson.version}`);
}
