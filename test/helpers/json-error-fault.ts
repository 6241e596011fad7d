/** Faults that tamper with the reference's JSON error answers, for the faulty-target corpus. */
import { jsonBody, withJson, type ProxyRequest, type ProxyResponse } from '../targets/faulty-proxy.ts';

type JsonObject = Record<string, unknown>;

/**
 * An onResponse that hands the JSON body of a 400 whose `code` is `code` to `rewrite` and answers with what it
 * returns; every other answer passes untouched.
 */
export function rewriteJson400(code: string, rewrite: (body: JsonObject) => JsonObject): (req: ProxyRequest, res: ProxyResponse) => ProxyResponse {
  return (_req, res) => {
    if (res.status !== 400 || !/json/.test(res.headers['content-type'] ?? '')) return res;
    const body = jsonBody<JsonObject>(res);
    return body.code === code ? withJson(res, rewrite(body)) : res;
  };
}
