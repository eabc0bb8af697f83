// A few sentences on each tab: what the puzzle is and which algorithm solves it, with a link to
// the kind's section of the README (built into the site as readme.html). The words come from
// Python (each kind's facts()["help"], in facts.json), so the page types no puzzle facts.

import { el } from "./ui.js";

// GitHub's anchor for a heading: lower case, punctuation dropped, spaces as hyphens. The README
// has one "### <title>" heading per kind, so the same link works on GitHub and in readme.html.
export function headingAnchor(title) {
  return title.trim().toLowerCase().replace(/[^\p{L}\p{N}\s_-]/gu, "").replace(/\s/g, "-");
}

export async function showHelp() {
  let facts;
  try {
    const response = await fetch(new URL("./facts.json", import.meta.url));
    if (!response.ok) throw new Error(`facts.json answered ${response.status}`);
    facts = await response.json();
  } catch (error) {
    console.warn(`pysolver: no help texts (${error.message}); rebuild with "python3 build.py"`);
    return;
  }
  for (const [kind, about] of Object.entries(facts.kinds || {})) {
    const panel = document.getElementById(`panel-${kind}`);
    if (!panel || !about.help || document.getElementById(`${kind}-help`)) continue;
    const link = el("a", { href: `readme.html#${headingAnchor(about.title)}`, target: "_blank", rel: "noopener" },
      `More about ${about.title} in the README`);
    panel.prepend(el("p", { id: `${kind}-help`, class: "kind-help" }, about.help, " ", link));
  }
}
