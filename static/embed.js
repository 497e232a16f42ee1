// embed.js, the author's kit for lesson pages: one script that turns a lesson page's
// <gitops-playground> elements, and its ```gitops code fences as Markdown renderers,
// mdBook and Docusaurus print them, into embeds of the playground, each sized to its
// content. docs/lesson-pages.md says how to use it; docs/sharing-and-embedding.md, the
// messages it exchanges with the playground's embedded view.
//
// A classic script with no dependencies, which also runs as a module: it needs no
// eval, no inline style and no <style> element (an embed's look is a constructed
// stylesheet), so a lesson page's strict Content-Security-Policy allows it as it allows
// any script of its own origin.
(() => {
  if (customElements.get('gitops-playground')) return;

  const READY = 'gitops:ready';
  const HEIGHT = 'gitops:height';
  const STATE = 'gitops:state';
  const UNNAMED_TITLE = 'GitOps playground';
  /** The attributes that choose what an embed shows; changing one starts it anew. */
  const ADDRESS_OPTIONS = ['view', 'panes', 'theme'];
  const OBSERVED = [...ADDRESS_OPTIONS, 'scenario', 'exercise', 'preset', 'playground', 'link'];
  /** A fence marked gitops as Markdown renderers and mdBook print it, and as Docusaurus does. */
  const MARKDOWN_FENCE = 'pre > code.language-gitops';
  const DOCUSAURUS_FENCE = 'div.theme-code-block.language-gitops';
  const FENCE = `${MARKDOWN_FENCE}, ${DOCUSAURUS_FENCE}`;

  /** The folder this script was loaded from, where the playground is unless an embed says otherwise. */
  const loadedFrom = () => {
    const script =
      document.currentScript ?? [...document.querySelectorAll('script[src]')].findLast((each) => /\/embed[\w.-]*\.js([?#]|$)/.test(each.src));
    return new URL('./', script?.src ?? location.href).href;
  };
  const scriptFolder = loadedFrom();

  /** An embed's look, in its shadow root: the page's rules for the element and its parts (`::part(frame)`) win. */
  const look = new CSSStyleSheet();
  look.replaceSync(
    ':host{display:block}:host([hidden]){display:none}' +
      'iframe{display:block;box-sizing:border-box;width:100%;height:32rem;border:0}' +
      '[role=alert]{margin:0 0 .5rem;font-weight:bold}',
  );

  /** Runs `then` once the page is parsed: an element's children, a fence's text are all there. */
  const whenParsed = (then) =>
    document.readyState === 'loading' ? document.addEventListener('DOMContentLoaded', then, { once: true }) : then();

  /** The embedded view's address for an embed's attributes. */
  function embeddedAddress(element) {
    const folder = new URL(element.getAttribute('playground') ?? scriptFolder, document.baseURI);
    if (!folder.pathname.endsWith('/')) folder.pathname += '/';
    const address = new URL('index.html', folder);
    address.searchParams.set('embed', '1');
    for (const option of ADDRESS_OPTIONS) {
      const value = element.getAttribute(option);
      if (value) address.searchParams.set(option, value);
    }
    address.searchParams.set('origin', location.origin);
    address.hash = element.getAttribute('link') ?? '';
    return address;
  }

  /**
   * The gitops:load message for what an embed names, or null when it names nothing (the
   * worked example): its `scenarioText` (a fence's), the file its `scenario` names, its
   * `exercise` or its `preset`.
   */
  async function loadMessage(element) {
    if (element.scenarioText != null) return { type: 'gitops:load', scenario: element.scenarioText };
    const file = element.getAttribute('scenario');
    if (file) {
      const response = await fetch(new URL(file, document.baseURI));
      if (!response.ok) throw new Error(`${file} answered ${response.status} ${response.statusText}`.trim());
      return { type: 'gitops:load', scenario: await response.text() };
    }
    const exercise = element.getAttribute('exercise');
    if (exercise) return { type: 'gitops:load', preset: exercise.startsWith('exercises/') ? exercise : `exercises/${exercise}` };
    const preset = element.getAttribute('preset');
    return preset ? { type: 'gitops:load', preset } : null;
  }

  class GitopsPlayground extends HTMLElement {
    static observedAttributes = OBSERVED;
    /** The page's messages until the playground is ready and has opened what the element names. */
    waiting = [];
    ready = false;

    connectedCallback() {
      whenParsed(() => this.isConnected && !this.frame && this.start());
    }

    disconnectedCallback() {
      this.stop();
    }

    attributeChangedCallback() {
      if (!this.frame || this.restarting) return;
      this.restarting = true;
      queueMicrotask(() => {
        this.restarting = false;
        this.stop();
        if (this.isConnected) this.start();
      });
    }

    /** Posts `message` to the playground: at once when it is ready, else after what the element names has opened. */
    send(message) {
      if (this.ready) this.post(message);
      else this.waiting.push(message);
    }

    post(message) {
      this.frame.contentWindow.postMessage(message, this.playgroundOrigin);
    }

    /**
     * Shows the iframe, in a shadow root: the element's own children stay as the page
     * made them (React, which renders an .mdx page's element, hydrates it finding them so).
     */
    start() {
      const address = embeddedAddress(this);
      this.playgroundOrigin = address.origin;
      this.ready = false;
      this.frame = Object.assign(document.createElement('iframe'), { title: UNNAMED_TITLE, loading: 'lazy', src: address.href });
      this.frame.setAttribute('part', 'frame');
      const shadow = this.shadowRoot ?? this.attachShadow({ mode: 'open' });
      shadow.adoptedStyleSheets = [look];
      shadow.replaceChildren(this.frame);
      this.listener = (event) => this.receive(event);
      addEventListener('message', this.listener);
      const frame = this.frame;
      const load = loadMessage(this).catch((error) => {
        if (frame === this.frame) this.fail(`The GitOps playground could not load its scenario: ${error.message}`);
      });
      const playgroundReady = new Promise((resolve) => (this.playgroundReady = resolve));
      Promise.all([load, playgroundReady]).then(([message]) => {
        if (frame !== this.frame) return;
        if (message) this.post(message);
        this.ready = true;
        for (const waiting of this.waiting.splice(0)) this.post(waiting);
      });
    }

    stop() {
      removeEventListener('message', this.listener);
      this.frame = null;
    }

    /** A message from this embed's playground: sizes and names the iframe, and tells the page. */
    receive({ source, origin, data }) {
      if (source !== this.frame?.contentWindow || origin !== this.playgroundOrigin || !/^gitops:/.test(data?.type)) return;
      if (data.type === READY) {
        this.playgroundReady();
      } else if (data.type === HEIGHT && data.height > 0) {
        this.frame.style.height = `${data.height}px`;
      } else if (data.type === STATE && data.scenario) {
        this.frame.title = `${UNNAMED_TITLE}: ${data.scenario}`;
      }
      this.tell(data.type.replace(':', '-'), data);
    }

    /** Says on the page, above the iframe, why the scenario did not load, and tells the page. */
    fail(message) {
      const alert = Object.assign(document.createElement('p'), { textContent: message });
      alert.setAttribute('role', 'alert');
      alert.setAttribute('part', 'alert');
      this.shadowRoot.prepend(alert);
      this.tell('gitops-error', { type: 'gitops:error', request: 'gitops:load', message, line: null, column: null, pointer: null });
    }

    /** A DOM event `name` (gitops-progress…) with `detail`, which bubbles out of a shadow root too. */
    tell(name, detail) {
      this.dispatchEvent(new CustomEvent(name, { detail, bubbles: true, composed: true }));
    }
  }
  customElements.define('gitops-playground', GitopsPlayground);

  /**
   * An embed of `text`, with the options a fence's classes name: mdBook keeps the words of
   * ```gitops,view=picture or ```gitops panes=desired+plan as classes, splitting them at
   * commas, so a fence's lists are joined with `+`.
   */
  function embedOf(text, classes) {
    const embed = document.createElement('gitops-playground');
    embed.scenarioText = text;
    for (const name of classes) {
      const [option, value] = name.split('=');
      if (ADDRESS_OPTIONS.includes(option) && value) embed.setAttribute(option, value.replaceAll('+', ','));
    }
    return embed;
  }

  /**
   * A Markdown renderer's fence is plain HTML: the embed replaces it. Docusaurus' is
   * React's, which must find its own nodes where it left them: a shadow root on the
   * block's wrapper shows the embed instead of them, and React keeps them.
   */
  function embedFence(block) {
    if (block.matches(MARKDOWN_FENCE)) {
      block.parentElement.replaceWith(embedOf(block.textContent, block.classList));
    } else if (!block.shadowRoot) {
      const lines = [...block.querySelectorAll('.token-line')].map((line) => line.textContent);
      const code = block.querySelector('code');
      if (!code) return;
      block.attachShadow({ mode: 'open' }).append(embedOf(lines.length ? lines.join('\n') : code.textContent, []));
    }
  }

  const fencesIn = (node) =>
    node.nodeType === Node.ELEMENT_NODE ? [node, ...node.querySelectorAll(FENCE)].filter((each) => each.matches(FENCE)) : [];

  // Fences on the page once it is parsed, and those a single-page site renders later.
  whenParsed(() => {
    fencesIn(document.body).forEach(embedFence);
    new MutationObserver((changes) => {
      for (const change of changes) for (const node of change.addedNodes) fencesIn(node).forEach(embedFence);
    }).observe(document.body, { childList: true, subtree: true });
  });
})();
