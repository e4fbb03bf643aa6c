// Sortie's campaign page: the slider previews steps as it moves, the zoom buttons enlarge the
// board inside its scrolling box. Everything also works without this script (links, a form).
"use strict";

(function () {
  const board = document.getElementById("board");
  const img = document.getElementById("boardimg");
  const slider = document.getElementById("step");
  const output = document.getElementById("stepno");
  const headline = document.getElementById("headline");
  const text = document.getElementById("steptext");
  const zoomBar = document.querySelector(".zoom");
  const levels = [1, 1.5, 2, 3, 4];
  let level = 0;

  function setZoom(next) {
    if (!board || !img) return;
    level = Math.max(0, Math.min(levels.length - 1, next));
    const scale = levels[level];
    const centreX = (board.scrollLeft + board.clientWidth / 2) / board.scrollWidth;
    const centreY = (board.scrollTop + board.clientHeight / 2) / board.scrollHeight;
    img.style.width = scale * 100 + "%";
    board.classList.toggle("zoomed", scale > 1);
    board.scrollLeft = centreX * board.scrollWidth - board.clientWidth / 2;
    board.scrollTop = centreY * board.scrollHeight - board.clientHeight / 2;
    board.dataset.zoom = String(scale);
  }

  if (zoomBar && board) {
    zoomBar.hidden = false;
    zoomBar.addEventListener("click", (event) => {
      const button = event.target.closest("button[data-zoom]");
      if (!button) return;
      const step = Number(button.dataset.zoom);
      setZoom(step === 0 ? 0 : level + step);
    });
    // A tap on the board zooms in instead of opening the image alone.
    const link = board.querySelector("a");
    if (link) {
      link.addEventListener("click", (event) => {
        event.preventDefault();
        setZoom(level + 1 < levels.length ? level + 1 : 0);
      });
    }
  }

  if (!slider) return;
  let steps = null;
  let pending = null;
  fetch(document.body.dataset.steps, { credentials: "same-origin" })
    .then((response) => (response.ok ? response.json() : null))
    .then((found) => {
      steps = found;
      document.body.dataset.ready = found ? "yes" : "no";
      if (pending !== null) show(pending);
    })
    .catch(() => {
      document.body.dataset.ready = "no";
    });

  function show(n) {
    if (output) output.textContent = String(n);
    if (!steps) {
      pending = n;
      return;
    }
    const step = steps.find((s) => s.n === n) || steps.filter((s) => s.n <= n).pop();
    if (!step) return;
    if (output) output.textContent = String(step.n);
    if (img) {
      img.src = step.image;
      img.alt = "The board after step " + step.n;
    }
    if (headline) headline.textContent = "Step " + step.n + ": " + step.headline;
    // The objectives, roster and links still describe the page's own step until it loads.
    const previewing = String(step.n) !== document.body.dataset.step;
    document.body.classList.toggle("previewing", previewing);
    const note = document.querySelector(".preview-note");
    if (note) note.hidden = !previewing;
    if (text) {
      text.textContent = "";
      if (step.text) {
        const item = document.createElement("li");
        item.textContent = step.text;
        text.appendChild(item);
      }
    }
  }

  slider.addEventListener("input", () => show(Number(slider.value)));
  // Letting go of the slider opens that step's whole page (objectives, roster, log).
  slider.addEventListener("change", () => slider.form.submit());
  document.addEventListener("keydown", (event) => {
    if (event.target.tagName === "INPUT" && event.target !== slider) return;
    const rel = { ArrowLeft: "prev", ArrowRight: "next" }[event.key];
    const link = rel && document.querySelector('nav.steps a[rel="' + rel + '"]');
    if (link) link.click();
  });
})();
