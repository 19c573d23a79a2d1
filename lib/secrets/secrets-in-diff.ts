/**
 * Finds secrets in the lines a patch adds (pure): the run's own secret values, as they are and
 * in the encodings that carry them past a plain search (URL-encoded, base64 at each of its three
 * alignments, hex), and the formats of common tokens whichever run they came from. A hit names
 * the file and what was found, never the value.
 */

export interface SecretHit {
  readonly path: string;
  /** What was found, for the task's report: "a secret of this run", "a GitHub token", … */
  readonly what: string;
}

const TOKEN_FORMATS: readonly { readonly what: string; readonly pattern: RegExp }[] = [
  { what: "a GitHub token", pattern: /\bgh[pousr]_[A-Za-z0-9]{36,}/ },
  { what: "a GitHub token", pattern: /\bgithub_pat_[A-Za-z0-9_]{22,}/ },
  { what: "an Anthropic API key", pattern: /\bsk-ant-[A-Za-z0-9_-]{20,}/ },
  { what: "an AWS access key", pattern: /\b(?:AKIA|ASIA)[A-Z0-9]{16}\b/ },
  { what: "a private key", pattern: /-----BEGIN (?:[A-Z0-9]+ )*PRIVATE KEY( BLOCK)?-----/ },
];

/** Shorter values (a `true`, a port) would match ordinary text. */
const MIN_SECRET_LENGTH = 8;

/** The stable middle of `secret` base64-encoded after 0, 1 or 2 other bytes, standard and URL-safe. */
function base64Forms(secret: string): string[] {
  return [0, 1, 2].flatMap((shift) => {
    const encoded = Buffer.from("x".repeat(shift) + secret, "utf8").toString("base64");
    // Leave out the characters that mix in the bytes before it and the padding after it.
    const middle = encoded.slice(Math.ceil((shift * 4) / 3) + 1, -4);
    return [middle, middle.replace(/\+/g, "-").replace(/\//g, "_")];
  });
}

/** Names that hold a credential, not merely a setting next to one (`INPUT_MODEL`, `ANTHROPIC_BASE_URL`). */
const CREDENTIAL_NAME = /TOKEN|KEY|SECRET|PASSWORD|CREDENTIAL|PRIVATE|(?:^|_)AUTH(?:_|$)/i;

/** The values of an environment's credential variables (a CLI provider's model key, a registry token). */
export function credentialValues(env: Readonly<Record<string, string | undefined>>): string[] {
  return Object.entries(env)
    .filter(
      ([name, value]) =>
        value !== undefined && value.length >= MIN_SECRET_LENGTH && CREDENTIAL_NAME.test(name),
    )
    .map(([, value]) => value ?? "");
}

/** Every form of the run's secrets worth searching for. */
function secretForms(secrets: readonly string[]): string[] {
  const forms = new Set<string>();
  for (const secret of secrets) {
    if (secret.length < MIN_SECRET_LENGTH) continue;
    const hex = Buffer.from(secret, "utf8").toString("hex");
    for (const form of [secret, encodeURIComponent(secret), hex, hex.toUpperCase(), ...base64Forms(secret)]) {
      if (form.length >= MIN_SECRET_LENGTH) forms.add(form);
    }
  }
  return [...forms];
}

/** A path as git prints it in a patch header: C-quoted when it holds special characters. */
function unquote(path: string): string {
  if (!path.startsWith('"') || !path.endsWith('"')) return path;
  const bytes: number[] = [];
  const body = path.slice(1, -1);
  const escapes: Record<string, number> = { n: 10, t: 9, r: 13, a: 7, b: 8, f: 12, v: 11, '"': 34, "\\": 92 };
  for (let at = 0; at < body.length; at += 1) {
    const char = body[at] ?? "";
    if (char !== "\\") {
      bytes.push(...Buffer.from(char, "utf8"));
      continue;
    }
    const next = body[at + 1] ?? "";
    if (/[0-7]/.test(next)) {
      bytes.push(parseInt(body.slice(at + 1, at + 4), 8));
      at += 3;
    } else {
      bytes.push(escapes[next] ?? next.charCodeAt(0));
      at += 1;
    }
  }
  return Buffer.from(bytes).toString("utf8");
}

/** The file each added line belongs to, from a `git diff` patch. */
function addedLines(diff: string): { path: string; line: string }[] {
  const added: { path: string; line: string }[] = [];
  let path = "";
  let inHunk = false;
  for (const line of diff.split("\n")) {
    if (line.startsWith("diff --git ")) inHunk = false;
    else if (!inHunk && line.startsWith("+++ ")) path = unquote(line.slice(4)).replace(/^b\//, "");
    else if (line.startsWith("@@")) inHunk = true;
    else if (inHunk && line.startsWith("+")) added.push({ path, line: line.slice(1) });
  }
  return added;
}

/** One hit per file and kind, in the order found. */
export function secretsInDiff(diff: string, secrets: readonly string[]): SecretHit[] {
  const forms = secretForms(secrets);
  const hits = new Map<string, SecretHit>();
  for (const { path, line } of addedLines(diff)) {
    const found = [
      ...(forms.some((form) => line.includes(form)) ? ["a secret of this run"] : []),
      ...TOKEN_FORMATS.filter((format) => format.pattern.test(line)).map((format) => format.what),
    ];
    for (const what of found) hits.set(`${path}\0${what}`, { path, what });
  }
  return [...hits.values()];
}
