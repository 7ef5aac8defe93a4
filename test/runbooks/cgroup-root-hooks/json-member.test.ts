import { describe, expect, it } from 'vitest';
import { jsonMember } from '../../../runbooks/cgroup-root-hooks/json-member.ts';

const member = (text: string, key: string) => jsonMember(Buffer.from(text), key);

describe('jsonMember: one top-level member of a JSON object, the rest walked, not built', () => {
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
  ])('answers as JSON.parse does: %s', (_what, text) => {
    expect(member(text, 'kpr')).toEqual((JSON.parse(text) as Record<string, unknown>).kpr);
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
  ])('throws a SyntaxError on %s', (_what, text, message) => {
    expect(() => member(text, 'kpr')).toThrow(SyntaxError);
    expect(() => member(text, 'kpr')).toThrow(message);
  });
});
