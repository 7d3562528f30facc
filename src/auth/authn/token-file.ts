// Static token file (--token-auth-file): CSV lines `token,user,uid[,groups...]`. The fourth column
// may hold several groups separated by commas (quoted in CSV), and further columns are groups too.

import { readFileSync } from 'node:fs';
import type { TokenAuthenticator, TokenResult, UserInfo } from './types.ts';

/** Splits one CSV line, honouring double quotes and doubled quotes inside them. */
function csvFields(line: string): string[] {
  const out: string[] = [];
  let field = '';
  let quoted = false;
  for (let i = 0; i < line.length; i++) {
    const c = line[i];
    if (quoted) {
      if (c === '"' && line[i + 1] === '"') {
        field += '"';
        i++;
      } else if (c === '"') quoted = false;
      else field += c;
    } else if (c === '"' && field.trim() === '') {
      quoted = true;
      field = '';
    } else if (c === ',') {
      out.push(field.trim());
      field = '';
    } else field += c;
  }
  if (quoted) throw new Error('unterminated quoted field');
  out.push(field.trim());
  return out;
}

export function parseTokenFile(text: string, source = 'token file'): Map<string, UserInfo> {
  const tokens = new Map<string, UserInfo>();
  text.split(/\r?\n/).forEach((line, i) => {
    if (line.trim() === '' || line.trimStart().startsWith('#')) return;
    let fields: string[];
    try {
      fields = csvFields(line);
    } catch (err) {
      throw new Error(`${source}, line ${i + 1}: ${(err as Error).message}`);
    }
    if (fields.length < 3)
      throw new Error(`${source}, line ${i + 1}: needs at least 3 columns (token, user, uid)`);
    const [token, username, uid, ...rest] = fields;
    if (token === '') throw new Error(`${source}, line ${i + 1}: empty token`);
    if (username === '') throw new Error(`${source}, line ${i + 1}: empty user name`);
    const groups = rest
      .flatMap((g) => g.split(','))
      .map((g) => g.trim())
      .filter((g) => g !== '');
    tokens.set(token, { username, uid, groups });
  });
  return tokens;
}

export class TokenFileAuthenticator implements TokenAuthenticator {
  constructor(private readonly tokens: Map<string, UserInfo>) {}

  static fromFile(path: string): TokenFileAuthenticator {
    return new TokenFileAuthenticator(parseTokenFile(readFileSync(path, 'utf8'), path));
  }

  authenticateToken(token: string): TokenResult {
    const user = this.tokens.get(token);
    if (user === undefined) return null;
    return { user: { ...user, groups: [...user.groups] } };
  }
}
