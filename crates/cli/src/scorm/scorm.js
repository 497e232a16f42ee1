// The launch page of one exercise of a SCORM 1.2 package (`gitops-sim package`): it
// embeds the playground beside it and tells the LMS what the playground tells it.
// `gitops:progress` becomes cmi.core.score.raw (the goals held, of 100) and
// cmi.core.lesson_status (`passed` once solved, else `incomplete`); the best of each
// stays. `gitops:state`'s link (the student's work, `#v1.…`) becomes cmi.suspend_data
// while it fits SCORM 1.2's 4,096 characters, and the next launch opens it again.
(() => {
  const SUSPEND_DATA_LIMIT = 4096;
  const frame = document.querySelector('iframe.playground');
  const status = document.querySelector('.course-status');

  /** The LMS's SCORM 1.2 API: `window.API` in this window's parents, or its opener's. */
  const findApi = () => {
    for (let view = window, depth = 0; view && depth < 10; depth++) {
      try {
        if (view.API) return view.API;
      } catch {
        // A parent of another origin: no API there.
      }
      if (view.parent === view) break;
      view = view.parent;
    }
    try {
      return window.opener?.API ?? null;
    } catch {
      return null;
    }
  };

  const api = findApi();
  const connected = api?.LMSInitialize('') === 'true';
  const get = (element) => (connected ? api.LMSGetValue(element) : '');
  const set = (element, value) => connected && api.LMSSetValue(element, String(value));
  const commit = () => connected && api.LMSCommit('');
  const saved = get('cmi.suspend_data');
  const resumed = saved.startsWith('#v1.');
  const say = (text) => {
    status.textContent = resumed ? `Your work from your last visit is back. ${text}` : text;
  };
  const link = resumed ? saved : document.body.dataset.start;
  if (connected && get('cmi.core.lesson_status') === 'not attempted') set('cmi.core.lesson_status', 'incomplete');
  set('cmi.core.exit', 'suspend');
  commit();
  say(connected ? 'The course records the goals you reach and keeps your work.' : 'No course is connected: your work is kept in this browser only.');
  frame.src = `playground/index.html?embed=1&origin=${encodeURIComponent(location.origin)}${link}`;

  let best = Number(get('cmi.core.score.raw')) || 0;
  let keptLink = saved;
  window.addEventListener('message', (event) => {
    if (event.source !== frame.contentWindow || event.origin !== location.origin) return;
    const message = event.data ?? {};
    if (message.type === 'gitops:height') frame.style.height = `${message.height}px`;
    if (message.type === 'gitops:progress' && connected) {
      const score = Math.round(message.score * 100);
      if (score > best || message.solved) {
        best = Math.max(best, score);
        set('cmi.core.score.min', 0);
        set('cmi.core.score.max', 100);
        set('cmi.core.score.raw', best);
      }
      if (message.solved) set('cmi.core.lesson_status', 'passed');
      commit();
      say(
        message.solved
          ? 'Solved: the course has recorded it.'
          : `Goals held: ${message.held} of ${message.total}. The course keeps your best.`,
      );
    }
    if (message.type === 'gitops:state' && connected && message.link && message.link !== keptLink) {
      if (message.link.length > SUSPEND_DATA_LIMIT) {
        say(`Your latest work is too large for the course to keep (${message.link.length} characters of ${SUSPEND_DATA_LIMIT}): it keeps your work from before.`);
        return;
      }
      keptLink = message.link;
      set('cmi.suspend_data', message.link);
      commit();
    }
  });
  window.addEventListener('pagehide', () => {
    if (!connected) return;
    commit();
    api.LMSFinish('');
  });
})();
