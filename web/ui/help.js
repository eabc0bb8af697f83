// A few sentences on each tab: what the puzzle is and which algorithm solves it, with a link to
// the kind's section of the guide for people using the page (docs/guide.md, built into the site
// as guide.html; the README is for developers). The words come from
// Python (each kind's facts()["help"], in the facts.json the page reads at start-up), so the
// page types no puzzle facts; the page puts the paragraph at the top of each kind's panel.

import { el } from "./ui.js";

// GitHub's anchor for a heading: lower case, punctuation dropped, spaces as hyphens. The guide
// has one "### <title>" heading per kind, so the same link works on GitHub and in guide.html.
export function headingAnchor(title) {
  return title.trim().toLowerCase().replace(/[^\p{L}\p{N}\s_-]/gu, "").replace(/\s/g, "-");
}

// The guide's section on New puzzle and play mode (Check, Hint, Explain, pencil marks).
export const PLAY_SECTION = "New puzzle and play";

// #KIND-help for a kind's facts (title, help), or null when Python gave it no help text; a kind
// that makes puzzles (facts.generate) also links the guide's section on playing them.
export function kindHelp(id, facts) {
  if (!facts.help) return null;
  const link = (title, words) => el("a", { href: `guide.html#${headingAnchor(title)}`, target: "_blank", rel: "noopener" }, words);
  const play = facts.generate ? [" · ", link(PLAY_SECTION, "How to play, Check, Hint and Explain")] : [];
  return el("p", { id: `${id}-help`, class: "kind-help" }, facts.help, " ", link(facts.title, `More about ${facts.title} in the guide`), ...play);
}
