// The example agent: an adk-js LlmAgent whose tool keeps what it learns in
// user: state, so every later conversation of that user starts with it.
import { FunctionTool, LlmAgent, type BaseLlm } from '@google/adk';
import { z } from 'zod';

export const APP_NAME = 'adk-example';

export const rememberPreference = new FunctionTool({
  name: 'remember_preference',
  description: 'Remember something the user likes, for all of their future conversations.',
  parameters: z.object({ preference: z.string().describe('What the user likes, in a few words.') }),
  execute: ({ preference }, context) => {
    if (!context) throw new Error('remember_preference needs a tool context.');
    const known = context.state.get<unknown>('user:preferences');
    const preferences = Array.isArray(known) ? known.filter((p): p is string => typeof p === 'string') : [];
    if (!preferences.includes(preference)) preferences.push(preference);
    // user: is shared by every session of this user; Statehouse records each change with this event.
    context.state.set('user:preferences', preferences);
    // temp: lives for this invocation only: Statehouse never stores it.
    context.state.set('temp:just_saved', preference);
    return { saved: preference, preferences };
  },
});

/** {user:name} must exist (run.ts sets it when it creates a session); {user:preferences?} may not yet. */
export const INSTRUCTION = `You are a friendly concierge for {user:name}.
What they like so far: {user:preferences?}.
When they tell you something they like, call remember_preference with it.
Answer in one or two sentences.`;

export function createConciergeAgent(model: BaseLlm): LlmAgent {
  return new LlmAgent({
    name: 'concierge',
    description: 'Chats with a user and remembers what they like.',
    model,
    instruction: INSTRUCTION,
    tools: [rememberPreference],
    // The final reply of every turn is also kept in session state.
    outputKey: 'last_answer',
  });
}
