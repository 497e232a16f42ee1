// Save as scenario: the page hands the scenario's text and the share link of what was
// done to api.js, loaded only now (no part of a first visit), which writes the
// scenario file (`saveScenario`), and the browser downloads it as `<name>.yaml` (or
// `.json`, for a scenario written in JSON). Resolves to what the page says of it: the
// file's name and what it does not keep.
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
  const kept = `Saved as ${anchor.download}: what you did before the first minute is its start, what you did after it its script.`;
  return saved.notKept.length ? `${kept} Not kept: ${saved.notKept.join('; ')}.` : kept;
}
