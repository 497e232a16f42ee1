// The build this hook finishes: the staging directory where Trunk assembled the page
// (TRUNK_STAGING_DIR: .stage in the dist folder, dist/ or whatever --dist names), which
// Trunk moves to the dist folder after the hook, and the public URL that the page's URLs
// start with (TRUNK_PUBLIC_URL), with the mapping from those URLs to the build's files.

import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fail } from './report.mjs';

export const staging = process.env.TRUNK_STAGING_DIR;
if (!staging) fail('TRUNK_STAGING_DIR is not set: Trunk runs this hook (trunk build).');
const pagePath = join(staging, 'index.html');
if (!existsSync(pagePath)) fail(`no index.html in ${staging}`);

/**
 * Where the build is served, as Trunk writes it into the page's URLs: relative (`./`),
 * an absolute path (`/courses/gitops/playground/`), or a URL with an origin. Trunk
 * always sets it and ends it with `/`; without Trunk, the default of Trunk.toml.
 */
export const publicUrl = process.env.TRUNK_PUBLIC_URL || './';
/** A public URL that is not relative to the page: `/path`, `//host` or `scheme:`. */
export const absolutePublicUrl = /^[a-z][a-z0-9+.-]*:|^\//i.test(publicUrl);
/**
 * The build's root as a URL, on a made-up site when the public URL has no origin: a URL
 * of the page names a file of the build when, resolved against this, it is under it. A
 * relative public URL is relative to index.html, which is at the root.
 */
export const root = new URL(publicUrl, 'https://site.invalid/');
/** A public URL with an origin (a CDN) serves the page's code from there: the CSP allows it. */
export const publicOrigin = /^[a-z][a-z0-9+.-]*:/i.test(publicUrl) ? root.origin : undefined;

/** The build's file at `url` (absolute), or undefined when the URL is not under the build's root. */
export function buildFile(url) {
  if (!url.href.startsWith(root.href)) return undefined;
  return join(staging, decodeURIComponent(url.pathname.slice(root.pathname.length)));
}

export function readPage() {
  return readFileSync(pagePath, 'utf8');
}

export function writePage(page) {
  writeFileSync(pagePath, page);
}

/** Writes the file `name` at the build's root. */
export function write(name, text) {
  writeFileSync(join(staging, name), text);
}

/** The paths of the files under `dir`, but hidden ones. */
export function walk(dir) {
  return readdirSync(dir, { withFileTypes: true })
    .filter((entry) => !entry.name.startsWith('.'))
    .flatMap((entry) => (entry.isDirectory() ? walk(join(dir, entry.name)) : [join(dir, entry.name)]));
}
