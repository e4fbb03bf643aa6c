/* The name and channel the playground page opens with: `?channel=…&user=…` in the address
   (a link to a campaign's channel), else what this browser used last, else a fresh name in
   #general. A value that is not a valid name is ignored. Kept apart from app.js so a test can
   run it without a browser. */
"use strict";

const IDENTITY_NAME_RE = /^[A-Za-z0-9_-]{1,32}$/;

function initialIdentity(search, recall, fresh) {
  const params = new URLSearchParams(search || "");
  const pick = (key, stored, fallback) => {
    const given = (params.get(key) || "").trim().replace(/^#/, "");
    if (IDENTITY_NAME_RE.test(given)) return given;
    return stored || fallback;
  };
  return {
    user: pick("user", recall("sortie.user"), fresh),
    channel: pick("channel", recall("sortie.channel"), "general"),
  };
}

if (typeof module !== "undefined") module.exports = { initialIdentity };
