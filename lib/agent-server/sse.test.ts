import { describe, expect, it } from 'vitest';
import { sseData } from './sse';

async function all(chunks: string[]): Promise<string[]> {
  async function* source() {
    yield* chunks;
  }
  const out: string[] = [];
  for await (const data of sseData(source())) out.push(data);
  return out;
}

describe('server-sent events', () => {
  const stream = 'data: {"a":1}\n\n: a comment\nevent: x\ndata: {"b":\ndata: 2}\n\ndata: last';

  it('yields each event’s data, however the stream is cut into chunks', async () => {
    const expected = ['{"a":1}', '{"b":\n2}', 'last'];
    expect(await all([stream])).toEqual(expected);
    for (let size = 1; size < 8; size += 1) {
      const chunks = stream.match(new RegExp(`[\\s\\S]{1,${size}}`, 'g')) ?? [];
      expect(await all(chunks)).toEqual(expected);
    }
  });

  it('takes \\r\\n and \\r line ends, a \\r\\n split across chunks too', async () => {
    expect(await all(['data: 1\r', '\n\r\ndata: 2\r\r'])).toEqual(['1', '2']);
  });
});
