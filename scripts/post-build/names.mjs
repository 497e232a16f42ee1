// The names of the build's files that more than one step knows.

/** The name Trunk gives the API module (crates/api), a `data-type="worker"` rust asset. */
export const API_MODULE = 'gitops-api';
/** The page's wasm as Trunk names it; the build ships it packed (`.xz`) beside it. */
export const PAGE_WASM = /^playground-[0-9a-f]+_bg\.wasm$/;
/** The xz decoder's module and its wasm (xz-decoder.mjs), which the page and api.js unpack with. */
export const XZ_DECODER = /^xz-decompress-[0-9a-f]{16}\.(js|wasm)$/;
/** The service worker a course copies next to its lesson pages, and what it loads from the build (lesson-sw.mjs). */
export const LESSON_SW = 'lesson-sw.js';
export const LESSON_WORKER = 'lesson-worker.js';
/** The texts of the presets and exercises in one file (scenarios.mjs). */
export const SCENARIOS = 'scenarios.json';
/** Their files, titles and sections, which the page fetches for its menu (menu.mjs). */
export const MENU = 'menu.json';
export const SCENARIO_DIRECTORIES = ['presets', 'exercises'];
/** The script lesson pages include to embed the playground (embed-script.mjs). */
export const EMBED_SCRIPT = 'embed.js';
/** The preset the page opens with, whose title and explanation the shell shows. */
export const FIRST_PRESET = 'worked-example.json';
