import { describe, expect, it } from 'vitest';
import { agentServerFor, parseAgentServers } from './config';

describe('STATEHOUSE_AGENT_SERVERS', () => {
  it('reads servers per app and store, with a header and a time limit', () => {
    const { servers, problem } = parseAgentServers(
      JSON.stringify([
        { app: 'shop', url: 'http://127.0.0.1:8000/' },
        { app: 'shop', store: 'staging', url: 'https://agent.example/api', header: { name: 'Authorization', value: 'Bearer x' } },
        { app: '*', store: 'staging', url: 'https://other.example', timeoutSeconds: 5 },
      ]),
    );
    expect(problem).toBeNull();
    expect(servers[0]).toEqual({ id: '*/shop', store: '*', app: 'shop', url: 'http://127.0.0.1:8000', timeoutMs: 60_000 });
    expect(agentServerFor(servers, 'staging', 'shop')?.url).toBe('https://agent.example/api');
    expect(agentServerFor(servers, 'native', 'shop')?.url).toBe('http://127.0.0.1:8000');
    expect(agentServerFor(servers, 'staging', 'blog')?.timeoutMs).toBe(5000);
    expect(agentServerFor(servers, 'native', 'blog')).toBeUndefined();
  });

  it.each([
    ['not JSON', 'shop=http://x', 'is not JSON'],
    ['no url', '[{"app": "shop"}]', 'entry 1'],
    ['a URL with credentials', '[{"app": "shop", "url": "http://me:pw@agent"}]', 'put credentials in "header"'],
    ['another scheme', '[{"app": "shop", "url": "file:///etc/passwd"}]', 'only http:// and https://'],
    ['a header value with a line break', '[{"app": "a", "url": "http://a", "header": {"name": "X", "value": "1\\r\\nY: 2"}}]', 'one line'],
    ['an unknown field', '[{"app": "a", "url": "http://a", "token": "x"}]', 'entry 1'],
    ['the same server twice', '[{"app": "a", "url": "http://a"}, {"app": "a", "url": "http://b"}]', 'names */a twice'],
  ])('refuses %s, configuring no server and saying why', (_name, raw, words) => {
    const { servers, problem } = parseAgentServers(raw);
    expect(servers).toEqual([]);
    expect(problem).toContain(words);
  });
});
