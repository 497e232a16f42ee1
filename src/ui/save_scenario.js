// Save as scenario: the page hands the scenario's text and the share link of what was
// done to api.js, loaded only now (no part of a first visit), which writes the
// scenario file (`saveScenario`), and the browser downloads it as `<name>.yaml` (or
// `.json`, for a scenario written in JSON). Resolves to the file's name and what it
// does not keep.
export async function saveScenario(text, link, name) {
  const api = await import(new URL('api.js', document.baseURI).href);
  await api.init();
  const saved = api.saveScenario(text, link);
  const extension = saved.text.trimStart().startsWith('{') ? 'json' : 'yaml';
  const url = URL.createObjectURL(new Blob([saved.text], { type: `application/${extension}` }));
  const anchor = Object.assign(document.createElement('a'), { href: url, download: `${name}.${extension}` });
  document.body.append(anchor);
  anchor.click();
  anchor.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
  return { file: anchor.download, notKept: saved.notKept };
}
