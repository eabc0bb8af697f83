// The polyomino share ID, short and readable in the spirit of Tatham's game IDs:
//
//   <board>:<pieces>[:<options>]
//   6x10:pentominoes                           a full 6x10 board, the 12 pentominoes
//   8/8/8/3-2-3/3-2-3/8/8/8:pentominoes,O4:noreflect,all
//
// board: "<rows>x<cols>" when every cell is to be covered; otherwise one entry per row, "/"
// between rows, each the lengths of its runs of open and blocked cells, open first ("3-2-3" is
// "...##...", "0-2-6" starts blocked). pieces: "," between entries; a set of Python's library
// whose members are all used once is written by its name; "D2*200" is a piece used 200 times;
// a piece of its own is "name=r.c;r.c;..." (its cells), with "*count" if used more than once.
// Names keep letters, digits, "_", "." and "-"; other characters are written as "~XX" (UTF-8
// bytes in hex). options: "noreflect" (no mirror images), "all" (count every tiling rather than
// those distinct up to symmetry). Links before this format (base64url of a JSON object, no
// ":") are still read.
import { fromBase64Url } from "../../ui/ui.js";

const PLAIN_NAME = /^[A-Za-z0-9_.-]+$/;

function escapeName(name) {
  if (PLAIN_NAME.test(name)) return name;
  return [...new TextEncoder().encode(name)].map((byte) => {
    const ch = String.fromCharCode(byte);
    return byte < 128 && /[A-Za-z0-9_.-]/.test(ch) ? ch : `~${byte.toString(16).padStart(2, "0").toUpperCase()}`;
  }).join("");
}

function unescapeName(text) {
  if (!/^(?:[A-Za-z0-9_.-]|~[0-9A-Fa-f]{2})+$/.test(text)) throw new Error(`the piece name "${text}" is not written as a link writes names`);
  const bytes = [];
  for (let i = 0; i < text.length; i++) {
    if (text[i] === "~") { bytes.push(Number.parseInt(text.slice(i + 1, i + 3), 16)); i += 2; } else bytes.push(text.charCodeAt(i));
  }
  return new TextDecoder().decode(Uint8Array.from(bytes));
}

function encodeBoard(board) {
  const rows = board.length;
  const cols = Math.max(0, ...board.map((line) => line.length));
  if (board.every((line) => line.length === cols && !line.includes("#"))) return `${rows}x${cols}`;
  return board.map((line) => {
    const runs = [];
    let want = ".";
    let i = 0;
    while (i < line.length) {
      let j = i;
      while (j < line.length && line[j] === want) j++;
      runs.push(j - i);
      i = j;
      want = want === "." ? "#" : ".";
    }
    return runs.length ? runs.join("-") : "0";
  }).join("/");
}

function decodeBoard(text) {
  const full = /^(\d+)x(\d+)$/.exec(text);
  if (full) return Array.from({ length: Number(full[1]) }, () => ".".repeat(Number(full[2])));
  return text.split("/").map((row, index) => {
    if (!/^\d+(?:-\d+)*$/.test(row)) throw new Error(`row ${index + 1} of the board, "${row}", is not run lengths such as 3-2-3`);
    return row.split("-").map((run, k) => (k % 2 ? "#" : ".").repeat(Number(run))).join("");
  });
}

// Request-form pieces (strings and {name, cells, count}) as link entries, sets collapsed.
function encodePieces(pieces, sets) {
  const plain = new Set(pieces.filter((piece) => typeof piece === "string"));
  const entries = [];
  const covered = new Set();
  for (const [setName, members] of Object.entries(sets)) {
    if (members.every((name) => plain.has(name) && !covered.has(name))) {
      entries.push(setName);
      for (const name of members) covered.add(name);
    }
  }
  for (const piece of pieces) {
    if (typeof piece === "string") {
      if (!covered.has(piece)) entries.push(escapeName(piece));
      continue;
    }
    const cells = piece.cells ? `=${piece.cells.map(([r, c]) => `${r}.${c}`).join(";")}` : "";
    const count = (piece.count ?? 1) > 1 ? `*${piece.count}` : "";
    entries.push(`${escapeName(piece.name)}${cells}${count}`);
  }
  return entries.join(",");
}

function decodePieces(text) {
  if (!text) return [];
  return text.split(",").map((entry) => {
    const match = /^([^=*]+)(?:=([^*]*))?(?:\*(\d+))?$/.exec(entry);
    if (!match) throw new Error(`the piece "${entry}" is not written as name, name*count or name=r.c;r.c`);
    const name = unescapeName(match[1]);
    if (match[2] === undefined && match[3] === undefined) return name;
    const piece = { name };
    if (match[2] !== undefined) {
      piece.cells = match[2].split(";").map((cell) => {
        if (!/^\d+\.\d+$/.test(cell)) throw new Error(`the cell "${cell}" of piece ${name} is not row.column`);
        return cell.split(".").map(Number);
      });
    }
    if (match[3] !== undefined) piece.count = Number(match[3]);
    return piece;
  });
}

/** The share ID of {board, pieces (request form), reflections, symmetry}. */
export function encodeTiling({ board, pieces, reflections, symmetry }, sets) {
  const options = [];
  if (reflections === false) options.push("noreflect");
  if (symmetry === "all") options.push("all");
  return `${encodeBoard(board)}:${encodePieces(pieces, sets)}${options.length ? `:${options.join(",")}` : ""}`;
}

/** {board, pieces, reflections, symmetry} from a share ID, new or old; throws Error saying why. */
export function decodeTiling(text) {
  if (!text.includes(":")) {
    let data;
    try {
      data = JSON.parse(fromBase64Url(text));
    } catch {
      throw new Error("expected <board>:<pieces>, such as 6x10:pentominoes");
    }
    return { board: data.board, pieces: data.pieces, reflections: data.reflections !== false, symmetry: data.symmetry };
  }
  const [board, pieces = "", options = "", ...rest] = text.split(":");
  if (rest.length) throw new Error("expected <board>:<pieces>[:<options>], with three parts at most");
  const flags = options ? options.split(",") : [];
  for (const flag of flags) {
    if (!["noreflect", "all"].includes(flag)) throw new Error(`unknown option "${flag}"; the options are noreflect and all`);
  }
  return {
    board: decodeBoard(board),
    pieces: decodePieces(pieces),
    reflections: !flags.includes("noreflect"),
    symmetry: flags.includes("all") ? "all" : "distinct",
  };
}
