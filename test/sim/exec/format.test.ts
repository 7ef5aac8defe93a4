import { describe, expect, it } from 'vitest';
import { bpftoolJson } from '../../../sim/exec/commands/bpftool/json-writer.ts';
import { ctime } from '../../../sim/exec/format/ctime.ts';
import { goDuration } from '../../../sim/exec/format/go-duration.ts';
import { goJsonIndent } from '../../../sim/exec/format/go-json.ts';
import { tabwrite } from '../../../sim/exec/format/tabwriter.ts';

describe('Go and C formatting helpers', () => {
  it('prints durations as Go does', () => {
    expect(goDuration(0)).toBe('0s');
    expect(goDuration(999)).toBe('999ns');
    expect(goDuration(318_300)).toBe('318.3µs');
    expect(goDuration(1_500_000)).toBe('1.5ms');
    expect(goDuration(75_000_000_000)).toBe('1m15s');
    expect(goDuration(116_754_608_943)).toBe('1m56.754608943s');
    expect(goDuration(3_723_000_000_000)).toBe('1h2m3s');
  });

  it('prints ctime with a space-padded day', () => {
    expect(ctime(new Date('2024-05-08T15:23:58Z'))).toBe('Wed May  8 15:23:58 2024');
    expect(ctime(new Date('2023-12-12T03:20:27Z'))).toBe('Tue Dec 12 03:20:27 2023');
  });

  it('escapes HTML characters in JSON as Go does', () => {
    expect(goJsonIndent({ a: 'x<y>&z', b: [1] })).toBe(
      '{\n  "a": "x\\u003cy\\u003e\\u0026z",\n  "b": [\n    1\n  ]\n}',
    );
  });

  it('aligns cells per column block like text/tabwriter, leaving last cells unpadded', () => {
    const text = 'A:\tone\tx\nLonger key:\t2\ty\nno tabs here\nB:\tz\n';
    expect(tabwrite(text, { minWidth: 2, padding: 3 })).toBe(
      'A:            one   x\nLonger key:   2     y\nno tabs here\nB:   z\n',
    );
  });

  it('writes bpftool JSON compact, and pretty with its own indentation', () => {
    const value = [
      {
        cgroup: '/x',
        programs: [
          { id: 1, name: 'a' },
          { id: 2, name: 'b' },
        ],
      },
    ];
    expect(bpftoolJson(value, false)).toBe(
      '[{"cgroup":"/x","programs":[{"id":1,"name":"a"},{"id":2,"name":"b"}]}]\n',
    );
    expect(bpftoolJson(value, true)).toBe(
      '[{\n        "cgroup": "/x",\n        "programs": [{\n                "id": 1,\n                "name": "a"\n            },{\n                "id": 2,\n                "name": "b"\n            }\n        ]\n    }\n]\n',
    );
    expect(bpftoolJson([], true)).toBe('[]\n');
    expect(bpftoolJson({ error: 'a "b"\n' }, false)).toBe('{"error":"a \\"b\\"\\n"}\n');
  });
});
