/**
 * Reads the target's OpenAPI document (3.0 or 3.1, JSON or YAML) from a file or a URL, bounded in size, and
 * refuses anything that is not one with a sentence naming what was found instead.
 */
import { readFileSync, statSync } from 'node:fs';
import { request } from 'undici';
import { parse } from 'yaml';
import { FileNotFoundError, TargetUnreachableError } from '../errors/harness-errors.ts';
import { InitError } from './choices.ts';

const MAX_BYTES = 10 * 1024 * 1024;

export type OpenApiDoc = Record<string, any>;

async function readSource(source: string, timeoutMs: number): Promise<string> {
  if (/^https?:\/\//i.test(source)) {
    let res;
    try {
      res = await request(source, { headersTimeout: timeoutMs, bodyTimeout: timeoutMs, headers: { accept: 'application/json, application/yaml, */*' } });
    } catch (err) {
      throw new TargetUnreachableError(new URL(source).origin, `the OpenAPI document could not be fetched: ${(err as Error).message}`);
    }
    const chunks: Buffer[] = [];
    let size = 0;
    for await (const chunk of res.body) {
      size += (chunk as Buffer).length;
      if (size > MAX_BYTES) {
        res.body.destroy();
        throw new InitError('document', `--openapi ${source}: larger than ${MAX_BYTES} bytes; not read`);
      }
      chunks.push(chunk as Buffer);
    }
    if (res.statusCode !== 200) throw new InitError('document', `--openapi ${source}: answered ${res.statusCode}, not a document`);
    return Buffer.concat(chunks).toString('utf8');
  }
  let stat;
  try {
    stat = statSync(source);
  } catch {
    throw new FileNotFoundError(source);
  }
  if (!stat.isFile()) throw new FileNotFoundError(source, 'not a regular file');
  if (stat.size > MAX_BYTES) throw new InitError('document', `--openapi ${source}: larger than ${MAX_BYTES} bytes; not read`);
  return readFileSync(source, 'utf8');
}

export async function loadOpenApi(source: string, timeoutMs: number): Promise<OpenApiDoc> {
  const text = await readSource(source, timeoutMs);
  let doc: unknown;
  try {
    doc = text.trimStart().startsWith('{') ? JSON.parse(text) : parse(text, { maxAliasCount: 100 });
  } catch (err) {
    throw new InitError('document', `--openapi ${source}: neither JSON nor YAML (${(err as Error).message.split('\n')[0]})`);
  }
  if (!doc || typeof doc !== 'object' || Array.isArray(doc)) throw new InitError('document', `--openapi ${source}: not an OpenAPI document (the top level is not an object)`);
  const version = (doc as OpenApiDoc).openapi;
  if (typeof version !== 'string' || !/^3\.[01]\./.test(version)) {
    const found = typeof (doc as OpenApiDoc).swagger === 'string' ? `Swagger ${(doc as OpenApiDoc).swagger} (convert it to OpenAPI 3)` : version === undefined ? 'no "openapi" field' : `"openapi": ${JSON.stringify(version)}`;
    throw new InitError('document', `--openapi ${source}: not an OpenAPI 3.0 or 3.1 document (${found})`);
  }
  if (!(doc as OpenApiDoc).paths || typeof (doc as OpenApiDoc).paths !== 'object') throw new InitError('document', `--openapi ${source}: an OpenAPI document without "paths"`);
  return doc as OpenApiDoc;
}
