// index.html's own URLs under an absolute public URL. Trunk writes the URLs of its
// assets from an absolute public URL, so they load wherever the page is served from
// (`/courses/gitops/playground` without its `/`, say); the page's script and preload
// that index.html names relative to itself are made to do the same.

import { publicUrl } from './build.mjs';
import { attribute, elementsNamed, settingAttribute, spliced } from './html.mjs';
import { MENU } from './names.mjs';
import { fail } from './report.mjs';

/** The page with register-sw.js and menu.json named under the public URL. */
export function withOwnUrlsUnderPublicUrl(page) {
  return withMenuPreloadAt(withRegisterScriptAt(page, `${publicUrl}register-sw.js`), `${publicUrl}${MENU}`);
}

/** index.html loads register-sw.js, which registers the service worker, by a URL relative to the page. */
function withRegisterScriptAt(page, url) {
  const script = elementsNamed(page, 'script').find((element) => namesFileBesidePage(attribute(element, 'src'), 'register-sw.js'));
  if (!script) fail('index.html has no <script src="register-sw.js">, which registers the service worker');
  return spliced(page, [settingAttribute(page, script, 'src', url)]);
}

/**
 * index.html preloads menu.json by a URL relative to the page, as the page fetches it;
 * under an absolute public URL the page is served from it, and the preload names it so.
 */
function withMenuPreloadAt(page, url) {
  const preload = elementsNamed(page, 'link').find((element) => namesFileBesidePage(attribute(element, 'href'), MENU));
  return preload ? spliced(page, [settingAttribute(page, preload, 'href', url)]) : page;
}

/** Whether `url` names the file `name` beside the page: `name` or `./name`. */
function namesFileBesidePage(url, name) {
  return url === name || url === `./${name}`;
}
