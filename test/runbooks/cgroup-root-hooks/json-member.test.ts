import { describe, expect, it } from 'vitest';
import { JsonMemberScan } from '../../../runbooks/cgroup-root-hooks/json-member.ts';

/** The member read from the text written `size` bytes at a time. */
function member(text: string, key: string, size = Number.POSITIVE_INFINITY): unknown {
  const bytes = Buffer.from(text);
  const scan = new JsonMemberScan(key);
  for (let at = 0; at < bytes.length; at += size) scan.write(bytes.subarray(at, at + size));
  return scan.end();
}

/** Every way to cut a short text in chunks of one size, up to the whole text. */
const sizes = (text: string) => Array.from({ length: Buffer.byteLength(text) + 1 }, (_, i) => i + 1);

describe('JsonMemberScan: one top-level member of a JSON object as it arrives, the rest walked, not kept', () => {
  it.each([
    ['a nested object', '{"a":1,"kpr":{"features":{"socketLB":{"enabled":true}}},"z":[1,2]}'],
    ['strings with brackets, quotes and escapes around it', '{"s":"}{][\\"\\\\","kpr":"x\\"}y","t":"\\\\"}'],
    [
      'whitespace and newlines everywhere',
      ' {\n  "a" : [ {"b" : "}" } ] ,\n\t"kpr" :\r\n {"m" : null}\n}\n ',
    ],
    ['numbers, literals and arrays', '{"n":-1.5e3,"kpr":[true,false,null,0,"]"],"m":{}}'],
    ['a key spelled with escapes', '{"k\\u0070r":{"v":1},"x":2}'],
    ['a repeated key (the last wins)', '{"kpr":1,"x":{"kpr":3},"kpr":2}'],
    ['unicode beside it', '{"node":"ノード","kpr":"é"}'],
    ['no such member', '{"a":{"kpr":1}}'],
    ['an empty object', '{}'],
  ])('answers as JSON.parse does, however the text is cut: %s', (_what, text) => {
    const expected = (JSON.parse(text) as Record<string, unknown>).kpr;
    for (const size of sizes(text)) expect(member(text, 'kpr', size), `chunks of ${size}`).toEqual(expected);
  });

  it('reads a member after a large section it does not build', () => {
    const nodes = Array.from({ length: 20_000 }, (_, i) => ({
      name: `ip-10-0-${i}`,
      addresses: [{ ip: `10.0.${i}` }],
    }));
    const status = JSON.stringify(
      { cluster: { nodes }, 'kube-proxy-replacement': { features: { socketLB: {} } } },
      null,
      2,
    );
    expect(member(status, 'kube-proxy-replacement')).toEqual({ features: { socketLB: {} } });
  });

  it.each([
    ['empty output', '', /end of JSON input/],
    ['text', 'KVStore:   Ok   Disabled\n', /Expected '\{'/],
    ['an array', '[{"kpr":1}]', /Expected '\{'/],
    ['an object cut short', '{"a":{"b":[1,2', /end of JSON input/],
    ['a string cut short', '{"a":"b', /Unterminated string/],
    ['a missing colon', '{"a" 1}', /Expected ':'/],
    ['a missing comma', '{"a":1 "kpr":2}', /Expected ',' or '\}'/],
    ['an unquoted key', '{a:1}', /property name/],
    ['text after the object', '{"kpr":1} and more', /after JSON/],
    ['a malformed value of the member', '{"kpr":{"a":tru}}', /JSON/],
  ])('throws a SyntaxError on %s, however the text is cut', (_what, text, message) => {
    for (const size of [1, 2, 3, Number.POSITIVE_INFINITY]) {
      expect(() => member(text, 'kpr', size)).toThrow(SyntaxError);
      expect(() => member(text, 'kpr', size)).toThrow(message);
    }
  });

  it('names the position of the fault in the whole text, not in its chunk', () => {
    expect(() => member('{"a":1,  "kpr" 2}', 'kpr', 4)).toThrow("Expected ':' at position 15");
  });

  it('keeps none of the text it walks past: 40 MB in 32 KiB chunks holds no more memory', () => {
    const node = Buffer.from('{"name":"ip-10-0-1-1","addresses":[{"ip":"10.0.1.1","type":"InternalIP"}]},');
    const chunk = Buffer.concat(Array.from({ length: Math.floor(32_768 / node.length) }, () => node));
    const scan = new JsonMemberScan('kube-proxy-replacement');
    scan.write(Buffer.from('{"cluster":{"nodes":['));
    const before = process.memoryUsage().arrayBuffers;
    for (let written = 0; written < 40_000_000; written += chunk.length) scan.write(chunk);
    const held = process.memoryUsage().arrayBuffers - before;
    scan.write(Buffer.from('{}]},"kube-proxy-replacement":{"features":{"socketLB":{}}}}'));
    expect(scan.end()).toEqual({ features: { socketLB: {} } });
    expect(held).toBeLessThan(1_000_000);
  });
});
