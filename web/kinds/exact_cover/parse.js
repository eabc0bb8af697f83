// Reads an exact cover problem as Python's exact_cover kind reads it (pysolver/kinds/
// exact_cover.py: parse_named, _read_text, _read_lists, encode), with the same rules checked in
// the same order, so the page can draw the matrix and name a mistake while the person types,
// before Python has loaded. Python checks the problem again when it solves.
// tests/test_web_parsers.py runs this module in Node.js and Python's parser on the same inputs
// and compares what they read, which inputs they reject, and where (line or JSON path).
//
// The result has Python's encoded shape: items are numbered primary first; an option is a list
// of item numbers; with colours (Knuth's x:A), colours[option][position] is 0 for an entry
// without a colour and k for colourNames[k - 1] (numbered in order of first use).

// Python's whitespace (str.split, str.strip) and line breaks (str.splitlines) differ a little
// from JavaScript's \s (Python has \x1c-\x1f and \x85, JavaScript has \ufeff): cut where Python
// cuts.
const PYTHON_SPACE = "\\t\\n\\v\\f\\r\\x1c-\\x1f \\x85\\xa0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000";
// eslint-disable-next-line no-control-regex -- Python's str.splitlines breaks at these controls
const LINE_BREAKS = /\r\n|[\n\r\v\f\x1c\x1d\x1e\x85\u2028\u2029]/;
const SPACES = new RegExp(`[${PYTHON_SPACE}]+`);
const EDGE_SPACES = new RegExp(`^[${PYTHON_SPACE}]+|[${PYTHON_SPACE}]+$`, "g");

/** A problem Python would reject too: the message says what to fix, path where (as Python's). */
export class PuzzleError extends Error {
  constructor(message, path = "puzzle", code = "invalid_puzzle") {
    super(message);
    this.path = path;
    this.code = code;
  }
}

const quote = (name) => JSON.stringify(name);

function typeName(value) {
  if (value === null) return "null";
  if (typeof value === "boolean") return "a boolean";
  if (Number.isInteger(value)) return "an integer";
  if (typeof value === "number") return "a number";
  if (typeof value === "string") return "a string";
  if (Array.isArray(value)) return "a list";
  return "an object";
}

function requireList(value, path) {
  if (!Array.isArray(value)) throw new PuzzleError(`${path} must be a list, not ${typeName(value)}`, path);
  return value;
}

function requireObject(value, path) {
  if (value === null || typeof value !== "object" || Array.isArray(value)) {
    throw new PuzzleError(`${path} must be an object, not ${typeName(value)}`, path);
  }
  return value;
}

function requireString(value, path) {
  if (typeof value !== "string") throw new PuzzleError(`${path} must be a string, not ${typeName(value)}`, path);
  return value;
}

function checkCounts(limits, itemCount, optionCount) {
  if (itemCount > limits.max_items) {
    throw new PuzzleError(`the puzzle has ${itemCount.toLocaleString("en-US")} items; the limit is ${limits.max_items.toLocaleString("en-US")}`, "puzzle.items", "too_large");
  }
  if (optionCount > limits.max_options) {
    throw new PuzzleError(`the puzzle has ${optionCount.toLocaleString("en-US")} options; the limit is ${limits.max_options.toLocaleString("en-US")}`, "puzzle.options", "too_large");
  }
}

const tooManyEntries = (limits) => new PuzzleError(
  `the options name more than ${limits.max_entries.toLocaleString("en-US")} items in all; that is the limit`, "puzzle.options", "too_large");

// Knuth's multiplicities (DLX3) on primary items only, checked as Python's _bounds_problem.
function notPrimary(name, secondary) {
  if (secondary) return `item ${quote(name)} is secondary; only primary items take multiplicities (a secondary item is covered at most once, or shared under one colour)`;
  return `item ${quote(name)} has a multiplicity but is not a declared primary item`;
}

function boundsProblem(name, low, high, limits) {
  if (low < 0 || high < 0) return `the multiplicity of item ${quote(name)} has a negative bound`;
  if (low > high) return `the multiplicity of item ${quote(name)} has u = ${low} above v = ${high}; write u <= v (at least u and at most v options)`;
  if (high === 0) return `item ${quote(name)} has the upper bound 0, which forbids every option naming it; remove those options (and the item) instead`;
  if (high > limits.max_multiplicity) return `the multiplicity of item ${quote(name)} has v = ${high.toLocaleString("en-US")}; the limit is ${limits.max_multiplicity.toLocaleString("en-US")} (the most options a puzzle may have)`;
  return null;
}

const BOUNDS = /^(?:([0-9]+):)?([0-9]+)$/;

// The items line's tokens with u:v|A and v|A taken off the primary names (Python's _read_bounds).
function readBounds(tokens, number, multiplicities, limits) {
  let primaryPart = true;
  return tokens.map((token) => {
    if (token === "|") {
      primaryPart = false;
      return token;
    }
    if (!token.includes("|")) return token;
    const bar = token.indexOf("|");
    const name = token.slice(bar + 1);
    const match = BOUNDS.exec(token.slice(0, bar));
    let problem;
    if (!match || !name || name.includes("|")) {
      problem = `${quote(token)} is not an item with a multiplicity; write u:v|A or v|A (decimal numbers, then '|', then the item's name, no spaces)`;
    } else if (!primaryPart) {
      problem = notPrimary(name, true);
    } else {
      const lowText = match[1] ?? match[2];
      const highText = match[2];
      if (Math.max(lowText.length, highText.length) > String(limits.max_multiplicity).length) {
        problem = `the multiplicity of item ${quote(name)} is beyond the limit of ${limits.max_multiplicity.toLocaleString("en-US")}`;
      } else {
        problem = boundsProblem(name, Number(lowText), Number(highText), limits);
        multiplicities.set(name, [Number(lowText), Number(highText)]);
      }
    }
    if (problem !== null) throw new PuzzleError(`line ${number}: ${problem}`, "puzzle.text");
    return name;
  });
}

function readMultiplicities(value, primary, secondary, limits) {
  const given = requireObject(value, "puzzle.multiplicities");
  const multiplicities = new Map();
  for (const [name, bounds] of Object.entries(given)) {
    const path = `puzzle.multiplicities.${name}`;
    if (!primary.includes(name)) throw new PuzzleError(notPrimary(name, secondary.includes(name)), path);
    if (!Array.isArray(bounds) || bounds.length !== 2 || !bounds.every(Number.isInteger)) {
      throw new PuzzleError(`the multiplicity of item ${quote(name)} must be a list of two integers [u, v]: covered at least u and at most v times`, path);
    }
    const problem = boundsProblem(name, bounds[0], bounds[1], limits);
    if (problem !== null) throw new PuzzleError(problem, path);
    multiplicities.set(name, [bounds[0], bounds[1]]);
  }
  return multiplicities;
}

// Names as written, before numbering: {primary, secondary, options: [[entry text]],
// locations: [{label, path, entryPaths}], itemsLine (null for JSON lists), multiplicities (a
// Map from primary name to [u, v])}.
function readText(text, limits) {
  let primary = null;
  const multiplicities = new Map();
  let secondary = [];
  let itemsLine = 0;
  const options = [];
  const locations = [];
  let entries = 0;
  // Python's splitlines() ends no line with a break; split() leaves an empty last piece instead,
  // which is skipped like any blank line.
  text.split(LINE_BREAKS).forEach((line, index) => {
    const number = index + 1;
    const stripped = line.replace(EDGE_SPACES, "");
    if (!stripped || stripped.startsWith("|")) return;
    let tokens = stripped.split(SPACES);
    if (primary === null) tokens = readBounds(tokens, number, multiplicities, limits);
    for (const token of tokens) {
      if (token.includes("|") && token !== "|") {
        throw new PuzzleError(`line ${number}: ${quote(token)} contains '|', which only separates primary from secondary items on the items line`, "puzzle.text");
      }
    }
    const bars = tokens.filter((token) => token === "|").length;
    if (primary === null) {
      if (bars > 1) {
        throw new PuzzleError(`line ${number}: the items line has more than one '|'; put a single '|' between the primary and the secondary items`, "puzzle.text");
      }
      const split = tokens.indexOf("|");
      primary = split < 0 ? tokens : tokens.slice(0, split);
      secondary = split < 0 ? [] : tokens.slice(split + 1);
      itemsLine = number;
      return;
    }
    if (bars) throw new PuzzleError(`line ${number}: an option cannot contain '|' (only the items line can)`, "puzzle.text");
    entries += tokens.length;
    if (entries > limits.max_entries) throw tooManyEntries(limits);
    if (options.length >= limits.max_options) checkCounts(limits, 0, options.length + 1);
    options.push(tokens);
    locations.push({ label: `line ${number}`, path: "puzzle.text", entryPaths: false });
  });
  if (primary === null) {
    throw new PuzzleError("the text has no items line: the first line that is not a comment ('|' ...) must list the items", "puzzle.text");
  }
  checkCounts(limits, primary.length + secondary.length, options.length);
  return { primary, secondary, options, locations, itemsLine, multiplicities };
}

function readLists(puzzle, limits) {
  if (!Object.hasOwn(puzzle, "items")) throw new PuzzleError("the puzzle has options but no items list", "puzzle.items");
  if (!Object.hasOwn(puzzle, "options")) throw new PuzzleError("the puzzle has items but no options list", "puzzle.options");
  const primary = requireList(puzzle.items, "puzzle.items");
  const secondary = requireList(Object.hasOwn(puzzle, "secondary") ? puzzle.secondary : [], "puzzle.secondary");
  primary.forEach((name, position) => requireString(name, `puzzle.items[${position}]`));
  secondary.forEach((name, position) => requireString(name, `puzzle.secondary[${position}]`));
  const optionValues = requireList(puzzle.options, "puzzle.options");
  checkCounts(limits, primary.length + secondary.length, optionValues.length);
  const options = [];
  const locations = [];
  let entries = 0;
  optionValues.forEach((value, index) => {
    const path = `puzzle.options[${index}]`;
    const option = requireList(value, path);
    entries += option.length;
    if (entries > limits.max_entries) throw tooManyEntries(limits);
    option.forEach((name, position) => requireString(name, `${path}[${position}]`));
    options.push(option);
    locations.push({ label: `option ${index}`, path, entryPaths: true });
  });
  const multiplicities = readMultiplicities(Object.hasOwn(puzzle, "multiplicities") ? puzzle.multiplicities : {}, primary, secondary, limits);
  return { primary, secondary, options, locations, itemsLine: null, multiplicities };
}

// Number the items (primary first) and check every option against them: Python's encode().
function encode({ primary, secondary, options, locations, itemsLine, multiplicities }) {
  if (!primary.length) {
    throw new PuzzleError("there are no primary items: list at least one item to cover exactly once", itemsLine === null ? "puzzle.items" : "puzzle.text");
  }
  const numberOf = new Map();
  for (const [listName, names] of [["items", primary], ["secondary", secondary]]) {
    names.forEach((name, position) => {
      let problem = null;
      if (numberOf.has(name)) problem = `item ${quote(name)} is listed twice`;
      else if (name.includes(":")) problem = `item ${quote(name)} contains ':', which in an option separates an item from its colour (x:A); rename the item`;
      if (problem !== null) {
        if (itemsLine === null) throw new PuzzleError(problem, `puzzle.${listName}[${position}]`);
        throw new PuzzleError(`line ${itemsLine}: ${problem}`, "puzzle.text");
      }
      numberOf.set(name, numberOf.size);
    });
  }
  const colourNumber = new Map();
  const encoded = [];
  const colours = [];
  options.forEach((names, index) => {
    const { label, path, entryPaths } = locations[index];
    if (!names.length) throw new PuzzleError(`${label} is empty: an option must name at least one item`, path);
    const option = [];
    const optionColours = [];
    const seen = new Set();
    names.forEach((name, position) => {
      const colon = name.indexOf(":");
      const itemName = colon < 0 ? name : name.slice(0, colon);
      const colourName = colon < 0 ? null : name.slice(colon + 1);
      const item = numberOf.get(itemName);
      let problem = null;
      if (colourName !== null && (!itemName || !colourName || colourName.includes(":"))) {
        problem = `${label} names ${quote(name)}: a coloured item is written item:colour, with one ':' between two non-empty names, as in x:A`;
      } else if (item === undefined) {
        problem = `${label} names ${quote(itemName)}, which is not a declared item`;
        if (colourName !== null) problem += " (declare it once, without a colour, among the secondary items)";
      } else if (seen.has(item)) {
        problem = `${label} names item ${quote(itemName)} twice`;
      } else if (colourName !== null && item < primary.length) {
        problem = `${label} gives the primary item ${quote(itemName)} a colour (${quote(name)}); only secondary items can have colours (declare it after '|' or in "secondary", or drop the colour)`;
      }
      if (problem !== null) throw new PuzzleError(problem, entryPaths ? `${path}[${position}]` : path);
      seen.add(item);
      option.push(item);
      if (colourName === null) optionColours.push(0);
      else {
        if (!colourNumber.has(colourName)) colourNumber.set(colourName, colourNumber.size + 1);
        optionColours.push(colourNumber.get(colourName));
      }
    });
    encoded.push(option);
    colours.push(optionColours);
  });
  const bounds = primary.map((name) => multiplicities.get(name) ?? [1, 1]);
  return {
    items: [...primary, ...secondary],
    multiplicities: bounds.every(([low, high]) => low === 1 && high === 1) ? null : bounds,
    primaryCount: primary.length,
    secondaryCount: secondary.length,
    options: encoded,
    colours: colourNumber.size ? colours : null,
    colourNames: [...colourNumber.keys()],
  };
}

/**
 * The problem in a puzzle object ({text} or {items, secondary, options}), as Python reads it,
 * or a PuzzleError. limits: the kind's facts (max_items, max_options, max_entries).
 */
export function parsePuzzle(puzzle, limits) {
  if (puzzle === null || typeof puzzle !== "object" || Array.isArray(puzzle)) {
    throw new PuzzleError(`puzzle must be an object, not ${typeName(puzzle)}`, "puzzle");
  }
  const hasLists = Object.hasOwn(puzzle, "items") || Object.hasOwn(puzzle, "options");
  if (Object.hasOwn(puzzle, "text")) {
    if (hasLists) throw new PuzzleError("give either items and options, or text, not both", "puzzle.text");
    if (Object.hasOwn(puzzle, "multiplicities")) throw new PuzzleError("with a text, write the multiplicities on its items line, as u:v|A (or v|A)", "puzzle.multiplicities");
    return encode(readText(requireString(puzzle.text, "puzzle.text"), limits));
  }
  if (hasLists) return encode(readLists(puzzle, limits));
  throw new PuzzleError("an exact cover puzzle needs \"items\" and \"options\" lists, or a \"text\" in Knuth's format (items line, then one option a line)");
}

/** What the editor's text box holds: JSON when it starts with "{", else Knuth's text. A JSON
 * syntax error is a SyntaxError; the puzzle sent to the solver comes with the problem. */
export function parseProblem(text, limits) {
  const trimmed = text.replace(EDGE_SPACES, "");
  const puzzle = trimmed.startsWith("{") ? JSON.parse(trimmed) : { text };
  return { ...parsePuzzle(puzzle, limits), puzzle };
}

/** An option's entries as written: item names, with ":colour" where the option gives one. */
export function entryTexts(problem, optionIndex) {
  const colours = problem.colours?.[optionIndex];
  return problem.options[optionIndex].map((item, position) => {
    const colour = colours?.[position] ?? 0;
    return colour ? `${problem.items[item]}:${problem.colourNames[colour - 1]}` : problem.items[item];
  });
}
