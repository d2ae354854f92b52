// The INI dialect of Assetto Corsa's files (server_cfg.ini, entry_list.ini, race.ini, assists.ini):
// `[SECTION]` headers, `KEY=VALUE` lines, `;` or `#` at the start of a line for comments.
// Values are taken whole: no inline comments, no quoting (a server named "Paddock #1; Bay 2"
// keeps its `#` and `;`), because AC's own files never use either.

export type IniValue = string | number | boolean;

/** Sections in the order they are written; keys in the order given. */
export type IniInput = ReadonlyArray<readonly [section: string, entries: Record<string, IniValue>]>;

export interface WriteIniOptions {
  /** Line ending; AC's tools are Windows programs, so CRLF by default. */
  eol?: '\r\n' | '\n';
}

function formatValue(section: string, key: string, value: IniValue): string {
  if (typeof value === 'boolean') return value ? '1' : '0';
  if (typeof value === 'number') {
    if (!Number.isFinite(value))
      throw new RangeError(`[${section}] ${key}: ${value} is not finite`);
    return String(value);
  }
  if (/[\r\n]/.test(value))
    throw new RangeError(`[${section}] ${key}: a value cannot hold a line break`);
  return value;
}

const NAME = /^[A-Za-z0-9_]+$/;

/** Writes sections and keys as given; booleans become 1/0. Throws RangeError on a bad name/value. */
export function writeIni(sections: IniInput, options: WriteIniOptions = {}): string {
  const eol = options.eol ?? '\r\n';
  const out: string[] = [];
  for (const [section, entries] of sections) {
    if (!NAME.test(section)) throw new RangeError(`section name ${JSON.stringify(section)}`);
    if (out.length > 0) out.push('');
    out.push(`[${section}]`);
    for (const [key, value] of Object.entries(entries)) {
      if (!NAME.test(key)) throw new RangeError(`[${section}] key name ${JSON.stringify(key)}`);
      out.push(`${key}=${formatValue(section, key, value)}`);
    }
  }
  return out.join(eol) + eol;
}

export interface IniSection {
  name: string;
  /** 1-based line of the header. */
  line: number;
  /** Keys as written (AC reads keys in upper case; the reader keeps what it finds). */
  values: Map<string, string>;
}

export interface ParsedIni {
  sections: IniSection[];
  /** Lines that are neither a section, a key, a comment nor blank; keys outside any section;
   *  duplicate sections or keys. Each names its line. */
  problems: string[];
}

/** Reads an INI text. Never throws: what it cannot read is listed in `problems`. */
export function parseIni(text: string): ParsedIni {
  const sections: IniSection[] = [];
  const problems: string[] = [];
  const seen = new Map<string, IniSection>();
  let current: IniSection | undefined;
  const lines = text.replace(/^\uFEFF/, '').split(/\r?\n/);
  lines.forEach((raw, i) => {
    const line = i + 1;
    const trimmed = raw.trim();
    if (trimmed === '' || trimmed.startsWith(';') || trimmed.startsWith('#')) return;
    const header = /^\[([^\]]+)\]$/.exec(trimmed);
    if (header) {
      const name = header[1].trim();
      if (seen.has(name)) {
        problems.push(`line ${line}: section [${name}] appears twice`);
        current = seen.get(name);
        return;
      }
      current = { name, line, values: new Map() };
      seen.set(name, current);
      sections.push(current);
      return;
    }
    const eq = trimmed.indexOf('=');
    if (eq <= 0) {
      problems.push(`line ${line}: not a [SECTION] or KEY=VALUE: ${JSON.stringify(trimmed)}`);
      return;
    }
    const key = trimmed.slice(0, eq).trim();
    const value = trimmed.slice(eq + 1).trim();
    if (!current) {
      problems.push(`line ${line}: ${key} is outside any section`);
      return;
    }
    if (current.values.has(key)) {
      problems.push(`line ${line}: [${current.name}] ${key} appears twice`);
    }
    current.values.set(key, value);
  });
  return { sections, problems };
}

/** The section of that name, if any. */
export function iniSection(ini: ParsedIni, name: string): IniSection | undefined {
  return ini.sections.find((s) => s.name === name);
}
