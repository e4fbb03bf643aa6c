/* Sortie playground page: a live channel feed and a command box with autocomplete.
   Plain JavaScript, no build step; it only talks to the playground's own JSON API. */
"use strict";

(() => {
  const NAME_RE = /^[A-Za-z0-9_-]{1,32}$/;
  const POLL_MS = 1000;
  const SUGGEST_DELAY_MS = 120;
  const BOT = "Sortie";
  const MAX_SHOWN = 400; // older messages leave the page, as the server keeps only the latest

  const $ = (id) => document.getElementById(id);
  const userInput = $("user");
  const channelInput = $("channel");
  const feed = $("feed");
  const empty = $("empty");
  const notice = $("notice");
  const composer = $("composer");
  const commandInput = $("command");
  const sendButton = $("send");
  const list = $("suggestions");
  const channelTitle = $("channel-title");

  const state = {
    user: "",
    channel: "",
    last: 0,
    generation: 0, // bumps when the user or channel changes; stale answers are dropped
    polling: false,
    suggestions: [],
    active: -1,
    suggestSeq: 0,
    suggestTimer: 0,
    lastAccepted: false, // the last command sent was accepted (not refused)
  };

  // ---------------------------------------------------------------- identity

  function store(key, value) {
    try {
      localStorage.setItem(key, value);
    } catch (_) {
      /* private mode: just do not remember */
    }
  }

  function recall(key) {
    try {
      return localStorage.getItem(key) || "";
    } catch (_) {
      return "";
    }
  }

  function setNotice(text) {
    notice.textContent = text || "";
    notice.hidden = !text;
  }

  function applyIdentity() {
    const user = userInput.value.trim();
    const channel = channelInput.value.trim().replace(/^#/, "");
    if (!NAME_RE.test(user) || !NAME_RE.test(channel)) {
      setNotice("Names use 1-32 letters, digits, '_' or '-'.");
      return;
    }
    setNotice("");
    if (user === state.user && channel === state.channel) return;
    if (user.toLowerCase() === BOT.toLowerCase()) {
      setNotice("That name belongs to the bot; pick another.");
      return;
    }
    state.user = user;
    state.channel = channel;
    store("sortie.user", user);
    store("sortie.channel", channel);
    channelTitle.textContent = "# " + channel;
    document.title = "#" + channel + " · Sortie playground";
    resetFeed();
    poll();
  }

  function resetFeed() {
    state.generation += 1;
    state.last = 0;
    for (const node of Array.from(feed.querySelectorAll(".msg"))) node.remove();
    empty.hidden = false;
  }

  // ---------------------------------------------------------------- rendering

  function escapeHtml(text) {
    return text
      .replace(/&/g, "&amp;")
      .replace(/</g, "&lt;")
      .replace(/>/g, "&gt;")
      .replace(/"/g, "&quot;");
  }

  // A small, safe subset of Discord markdown: `code`, **bold**, *italic*, user and channel
  // mentions, links. Text is escaped first; only our own tags are added.
  function renderText(text) {
    const parts = text.split(/(`[^`\n]+`)/g);
    return parts
      .map((part) => {
        if (part.length > 2 && part.startsWith("`") && part.endsWith("`")) {
          return "<code>" + escapeHtml(part.slice(1, -1)) + "</code>";
        }
        let html = escapeHtml(part);
        html = html.replace(/\*\*([^*\n]+)\*\*/g, "<strong>$1</strong>");
        html = html.replace(/(^|[^*])\*([^*\n]+)\*(?!\*)/g, "$1<em>$2</em>");
        html = html.replace(/&lt;@([A-Za-z0-9_:-]+)&gt;/g, (_, id) => {
          const name = id.startsWith("pg:") ? id.slice(3) : id;
          const mine = name === state.user ? " me" : "";
          return '<span class="mention' + mine + '">@' + name + "</span>";
        });
        html = html.replace(/&lt;#([A-Za-z0-9_-]+)&gt;/g, '<span class="mention">#$1</span>');
        // Links (a campaign's web page): bare, or in Discord's <url> form that shows no preview.
        html = html.replace(
          /(?:&lt;)?(https?:\/\/[A-Za-z0-9.:\/_-]+)(?:&gt;)?/g,
          '<a href="$1" target="_blank" rel="noopener noreferrer">$1</a>'
        );
        return html;
      })
      .join("");
  }

  function colourFor(name) {
    let hash = 0;
    for (const ch of name) hash = (hash * 31 + ch.codePointAt(0)) >>> 0;
    return "hsl(" + (hash % 360) + ", 45%, 42%)";
  }

  function timeOf(iso) {
    const when = iso ? new Date(iso) : new Date();
    if (Number.isNaN(when.getTime())) return "";
    return when.toLocaleTimeString([], { hour: "2-digit", minute: "2-digit" });
  }

  function el(tag, className, text) {
    const node = document.createElement(tag);
    if (className) node.className = className;
    if (text !== undefined) node.textContent = text;
    return node;
  }

  function renderMessage(message) {
    const isBot = message.author === BOT && message.kind !== "command";
    const node = el("article", "msg " + (message.kind === "command" ? "command" : "reply"));
    // Its controls answer as of this campaign version (a press after the table moved on is
    // refused, as on Discord).
    if (message.version !== null && message.version !== undefined) {
      node.dataset.version = String(message.version);
    }
    node.dataset.id = String(message.id);
    if (message.ephemeral) node.classList.add("ephemeral");
    if (message.error) node.classList.add("error");
    const me = "pg:" + state.user;
    const mentionsMe =
      (message.mentions || []).includes(me) || (message.content || "").includes("<@" + me + ">");
    if (mentionsMe) node.classList.add("mentioned");

    const avatar = el("div", "avatar" + (isBot ? " bot" : ""), message.author.slice(0, 1));
    avatar.setAttribute("aria-hidden", "true");
    if (!isBot) avatar.style.background = colourFor(message.author);
    node.append(avatar);

    const main = el("div", "main");
    const meta = el("div", "meta");
    meta.append(el("span", "author", message.author));
    if (isBot) meta.append(el("span", "tag", "bot"));
    meta.append(el("span", "time", timeOf(message.time)));
    if (message.edited) meta.append(el("span", "edited", "(edited)"));
    main.append(meta);

    const body = el("div", "body");
    if (message.kind === "command") {
      const slash = el("span", "slash", message.content);
      body.append(slash);
    } else {
      body.innerHTML = renderText(message.content || "");
    }
    main.append(body);

    if (message.images && message.images.length) {
      const images = el("div", "images");
      message.images.forEach((url, index) => {
        const link = el("a");
        link.href = url;
        link.target = "_blank";
        link.rel = "noopener";
        link.title = "Open full size";
        const img = el("img");
        img.src = url;
        img.alt = (message.image_alts && message.image_alts[index]) || "Board image";
        img.loading = "lazy";
        img.decoding = "async";
        img.addEventListener("load", keepPinned);
        link.append(img);
        images.append(link);
      });
      main.append(images);
    }

    if (message.menus && message.menus.length) {
      // The action picker: each menu a select; choosing an entry runs its command.
      const menus = el("div", "menus");
      for (const spec of message.menus) {
        const select = el("select", "menu");
        select.setAttribute("aria-label", spec.placeholder);
        const prompt = el("option", "", spec.placeholder);
        prompt.value = "";
        prompt.disabled = true;
        prompt.selected = true;
        select.append(prompt);
        for (const entry of spec.entries) {
          const option = el("option", "", entry.label);
          option.value = entry.command;
          if (entry.description) option.title = entry.description;
          select.append(option);
        }
        menus.append(select);
      }
      main.append(menus);
    }

    if (message.buttons && message.buttons.length) {
      const buttons = el("div", "buttons");
      for (const spec of message.buttons) {
        const button = el("button", spec.style || "secondary", spec.label);
        button.type = "button";
        button.dataset.command = spec.command;
        button.title = spec.command;
        buttons.append(button);
      }
      main.append(buttons);
    }

    if (message.ephemeral) {
      const only = el("div", "only-you", "Only you can see this · ");
      const dismiss = el("button", "dismiss", "Dismiss message");
      dismiss.type = "button";
      only.append(dismiss);
      main.append(only);
    }
    node.append(main);
    return node;
  }

  let pinned = true;

  function nearBottom() {
    return feed.scrollHeight - feed.scrollTop - feed.clientHeight < 80;
  }

  function keepPinned() {
    if (pinned) feed.scrollTop = feed.scrollHeight;
  }

  feed.addEventListener("scroll", () => {
    pinned = nearBottom();
  });

  function addMessages(messages) {
    if (!messages.length) return;
    const stick = pinned || nearBottom();
    empty.hidden = true;
    for (const message of messages) {
      const shown = feed.querySelector('.msg[data-id="' + message.id + '"]');
      if (shown) {
        // A message seen again was rewritten: a turn post edited in place as its player
        // acted, or a superseded post whose buttons were taken away.
        shown.replaceWith(renderMessage(message));
        continue;
      }
      feed.append(renderMessage(message));
    }
    const shown = feed.querySelectorAll(".msg");
    for (let i = 0; i < shown.length - MAX_SHOWN; i += 1) shown[i].remove();
    if (stick) {
      pinned = true;
      keepPinned();
    }
  }

  // ---------------------------------------------------------------- talking to the API

  async function poll() {
    if (state.polling || !state.user || !state.channel) return;
    state.polling = true;
    const generation = state.generation;
    let more = false;
    try {
      const params = new URLSearchParams({ after: String(state.last), user: state.user });
      const url = "/api/channels/" + encodeURIComponent(state.channel) + "/messages?" + params;
      const response = await fetch(url, { cache: "no-store" });
      const data = await response.json();
      if (generation !== state.generation) return;
      if (!response.ok) {
        setNotice(data.error || "The feed could not be loaded.");
        return;
      }
      addMessages(data.messages || []);
      state.last = Math.max(state.last, data.last || 0);
      more = Boolean(data.more);
    } catch (_) {
      if (generation === state.generation) setNotice("Lost contact with the playground server.");
      return;
    } finally {
      state.polling = false;
    }
    if (notice.textContent.startsWith("Lost contact")) setNotice("");
    if (more && generation === state.generation) poll(); // a full page: fetch the rest now
  }

  // A fresh id per command or press: the server acts on an id once, so a retry after a lost
  // answer gets the first answer again instead of a second step.
  function newId() {
    const bytes = new Uint8Array(12);
    crypto.getRandomValues(bytes);
    return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
  }

  async function post(path, body) {
    try {
      return await fetch(path, {
        method: "POST",
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify(body),
      });
    } catch (_) {
      // Lost on the way (or its answer was): once more with the same id.
      return await fetch(path, {
        method: "POST",
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify(body),
      });
    }
  }

  // A typed command, or (with `control`) a button or menu entry pressed: sent with the
  // version its message was posted with.
  async function run(text, control) {
    text = text.trim();
    if (!text) return false;
    if (!state.user || !state.channel) {
      setNotice("Pick a name and a channel first.");
      return false;
    }
    sendButton.disabled = true;
    try {
      const who = { channel: state.channel, user: state.user, id: newId() };
      let response;
      if (control) {
        const holder = control.closest(".msg");
        const version = holder && holder.dataset.version;
        const press = { ...who, command: text };
        if (version) press.version = Number(version);
        response = await post("/api/component", press);
      } else {
        response = await post("/api/command", { ...who, text });
      }
      const data = await response.json();
      if (response.status >= 400) {
        setNotice(data.error || "The command could not be sent.");
        return false;
      }
      setNotice("");
      state.lastAccepted = data.ok !== false;
      pinned = true;
      await poll();
      return true;
    } catch (_) {
      setNotice("Lost contact with the playground server.");
      return false;
    } finally {
      sendButton.disabled = false;
    }
  }

  // ---------------------------------------------------------------- autocomplete

  // Where the option being typed starts: after the last space outside double quotes.
  function currentToken(text) {
    let start = 0;
    let quoted = false;
    for (let i = 0; i < text.length; i += 1) {
      const ch = text[i];
      if (ch === '"') quoted = !quoted;
      else if (/\s/.test(ch) && !quoted) start = i + 1;
    }
    return { start, token: text.slice(start) };
  }

  function hideSuggestions() {
    state.suggestions = [];
    state.active = -1;
    list.hidden = true;
    list.replaceChildren();
    commandInput.removeAttribute("aria-activedescendant");
  }

  function showSuggestions(suggestions) {
    state.suggestions = suggestions;
    state.active = -1;
    list.replaceChildren();
    if (!suggestions.length) {
      list.hidden = true;
      return;
    }
    suggestions.forEach((suggestion, index) => {
      const item = el("li");
      item.id = "suggestion-" + index;
      item.setAttribute("role", "option");
      item.dataset.index = String(index);
      item.append(el("span", "value", suggestion.value));
      if (suggestion.name && suggestion.name !== suggestion.value) {
        item.append(el("span", "label", suggestion.name));
      }
      list.append(item);
    });
    list.hidden = false;
  }

  function highlight(index) {
    const items = list.querySelectorAll("li");
    if (!items.length) return;
    state.active = (index + items.length) % items.length;
    items.forEach((item, i) => item.classList.toggle("active", i === state.active));
    const active = items[state.active];
    active.scrollIntoView({ block: "nearest" });
    commandInput.setAttribute("aria-activedescendant", active.id);
  }

  function accept(index) {
    const suggestion = state.suggestions[index];
    if (!suggestion) return;
    const caret = commandInput.selectionStart ?? commandInput.value.length;
    const before = commandInput.value.slice(0, caret);
    const after = commandInput.value.slice(caret);
    const { start, token } = currentToken(before);
    const value = suggestion.value;
    const colon = token.indexOf(":");
    let replacement = value;
    if (colon >= 0 && !value.endsWith(":") && !value.startsWith("/")) {
      // Completing an option's value: keep "name:" and replace what follows.
      const quoted = /\s/.test(value) ? '"' + value.replace(/"/g, "") + '"' : value;
      replacement = token.slice(0, colon + 1) + quoted;
    }
    const spacer = replacement.endsWith(":") || after.startsWith(" ") ? "" : " ";
    const head = before.slice(0, start) + replacement + spacer;
    commandInput.value = head + after;
    commandInput.setSelectionRange(head.length, head.length);
    commandInput.focus();
    hideSuggestions();
    requestSuggestions(); // the next option's names or values
  }

  function requestSuggestions() {
    clearTimeout(state.suggestTimer);
    state.suggestTimer = setTimeout(fetchSuggestions, SUGGEST_DELAY_MS);
  }

  async function fetchSuggestions() {
    const caret = commandInput.selectionStart ?? commandInput.value.length;
    const text = commandInput.value.slice(0, caret);
    const seq = ++state.suggestSeq;
    if (!text.trimStart().startsWith("/") || !state.user || !state.channel) {
      hideSuggestions();
      return;
    }
    try {
      const params = new URLSearchParams({ channel: state.channel, user: state.user, text });
      const response = await fetch("/api/autocomplete?" + params, { cache: "no-store" });
      if (!response.ok || seq !== state.suggestSeq) return;
      const data = await response.json();
      if (seq !== state.suggestSeq) return;
      if (document.activeElement !== commandInput) return;
      showSuggestions((data.suggestions || []).slice(0, 25));
    } catch (_) {
      hideSuggestions();
    }
  }

  commandInput.addEventListener("input", requestSuggestions);
  commandInput.addEventListener("focus", requestSuggestions);
  commandInput.addEventListener("blur", () => setTimeout(hideSuggestions, 150));

  commandInput.addEventListener("keydown", (event) => {
    const open = !list.hidden && state.suggestions.length > 0;
    if (!open) return;
    if (event.key === "ArrowDown") {
      event.preventDefault();
      highlight(state.active + 1);
    } else if (event.key === "ArrowUp") {
      event.preventDefault();
      highlight(state.active - 1);
    } else if (event.key === "Tab") {
      event.preventDefault();
      accept(state.active >= 0 ? state.active : 0);
    } else if (event.key === "Enter" && state.active >= 0) {
      event.preventDefault();
      accept(state.active);
    } else if (event.key === "Escape") {
      event.preventDefault();
      hideSuggestions();
    }
  });

  // mousedown, not click: it runs before the input loses focus.
  list.addEventListener("mousedown", (event) => {
    const item = event.target.closest("li");
    if (!item) return;
    event.preventDefault();
    accept(Number(item.dataset.index));
  });

  // ---------------------------------------------------------------- development clock

  const clockButton = $("clock");

  function showClock(iso) {
    const when = new Date(iso);
    clockButton.title = "Development clock, now " + when.toUTCString() + ". Move it 6 hours on.";
  }

  async function setUpClock() {
    try {
      const response = await fetch("/api/dev/clock", { cache: "no-store" });
      if (!response.ok) return;
      showClock((await response.json()).now);
      clockButton.hidden = false;
    } catch (_) {
      /* no development clock: nothing to show */
    }
  }

  clockButton.addEventListener("click", async () => {
    clockButton.disabled = true;
    try {
      const response = await fetch("/api/dev/clock", {
        method: "POST",
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify({ hours: 6 }),
      });
      const data = await response.json();
      if (!response.ok) {
        setNotice(data.error || "The clock did not move.");
        return;
      }
      showClock(data.now);
      setNotice("");
    } finally {
      clockButton.disabled = false;
    }
  });

  // ---------------------------------------------------------------- wiring

  composer.addEventListener("submit", async (event) => {
    event.preventDefault();
    const text = commandInput.value;
    hideSuggestions();
    if (await run(text)) commandInput.value = "";
    commandInput.focus();
  });

  feed.addEventListener("click", async (event) => {
    const dismiss = event.target.closest(".dismiss");
    if (dismiss) {
      dismiss.closest(".msg").remove();
      return;
    }
    const button = event.target.closest(".buttons button");
    if (!button) return;
    button.disabled = true;
    try {
      await choose(button, button.dataset.command);
    } finally {
      button.disabled = false;
    }
  });

  feed.addEventListener("change", async (event) => {
    const select = event.target.closest("select.menu");
    if (!select || !select.value) return;
    select.disabled = true;
    try {
      await choose(select, select.value);
    } finally {
      select.disabled = false;
    }
  });

  // A choice made in the picker's private panel replaces the panel: the next step of the
  // picker, or (after a complete action) the player's next panel.
  async function choose(control, command) {
    const panel = control.closest(".msg");
    const inPicker = Boolean(panel && panel.querySelector(".menus"));
    const ok = (await run(command, control)) && state.lastAccepted;
    if (!inPicker || !ok) return;
    panel.remove();
    if (!command.startsWith("/pick")) await run("/pick");
  }

  for (const input of [userInput, channelInput]) {
    input.addEventListener("change", applyIdentity);
    input.addEventListener("keydown", (event) => {
      if (event.key === "Enter") {
        event.preventDefault();
        applyIdentity();
        commandInput.focus();
      }
    });
  }
  $("who").addEventListener("submit", (event) => event.preventDefault());

  // `?channel=…&user=…` opens that channel as that user (see identity.js).
  const opening = initialIdentity(
    window.location.search,
    recall,
    "player-" + Math.floor(100 + Math.random() * 900),
  );
  userInput.value = opening.user;
  channelInput.value = opening.channel;
  applyIdentity();
  setUpClock();
  setInterval(poll, POLL_MS);
})();
