// Subresource integrity: Trunk computes the `integrity` attributes of index.html's links
// and scripts before this hook runs. They are checked against their files before the
// hook changes any, and written anew for the files it changes.

import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { buildFile, publicUrl, root } from './build.mjs';
import { attribute, elementsNamed, settingAttribute, spliced } from './html.mjs';
import { fail } from './report.mjs';

/** Fails the build if a local file no longer matches its `integrity` attribute. */
export function checkIntegrity(page) {
  for (const { integrity, target } of withIntegrity(page)) {
    const url = new URL(target, root);
    if (url.origin !== root.origin) continue;
    const path = buildFile(url);
    if (!path || !existsSync(path)) {
      fail(`${target} has an integrity attribute but is not in the build (public URL ${publicUrl})`);
    }
    const expected = integrity.trim().split(/\s+/);
    const actual = expected.map((item) => integrityOf(item.split('-')[0], path));
    if (!expected.some((item, index) => item === actual[index])) {
      fail(`${target}: integrity ${integrity} no longer matches the file (${actual.join(' ')})`);
    }
  }
}

/** The page with the integrity of each file in `changed` (paths in the build) as it is now. */
export function withFreshIntegrity(page, changed) {
  const edits = withIntegrity(page).flatMap(({ element, integrity, target }) => {
    const path = buildFile(new URL(target, root));
    if (!path || !changed.includes(path)) return [];
    const [algorithm] = integrity.trim().split('-');
    return [settingAttribute(page, element, 'integrity', integrityOf(algorithm, path))];
  });
  return spliced(page, edits);
}

/** The page's links and scripts with an integrity attribute, and the URL each loads. */
function withIntegrity(page) {
  return elementsNamed(page, 'link', 'script')
    .map((element) => ({
      element,
      integrity: attribute(element, 'integrity'),
      target: attribute(element, 'href') ?? attribute(element, 'src'),
    }))
    .filter(({ integrity, target }) => integrity && target);
}

/** The integrity of the file at `path` by `algorithm` (`sha384`). */
function integrityOf(algorithm, path) {
  return `${algorithm}-${createHash(algorithm).update(readFileSync(path)).digest('base64')}`;
}
