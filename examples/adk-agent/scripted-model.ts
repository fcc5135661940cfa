// A stand-in for Gemini that needs no network or key: it answers from the
// request alone, deterministically, so the example always runs.
import { BaseLlm, type BaseLlmConnection, type LlmRequest, type LlmResponse } from '@google/adk';

const LIKES = /\bI (?:like|love|enjoy) ([^.!?]+)/i;

function reply(text: string): LlmResponse {
  return { content: { role: 'model', parts: [{ text }] } };
}

export class ScriptedConciergeModel extends BaseLlm {
  constructor() {
    super({ model: 'scripted-concierge' });
  }

  async *generateContentAsync(request: LlmRequest): AsyncGenerator<LlmResponse, void> {
    const instruction = typeof request.config?.systemInstruction === 'string' ? request.config.systemInstruction : '';
    const name = /concierge for ([^.\n]+)\./.exec(instruction)?.[1] ?? 'friend';
    const liked = /What they like so far: ([^\n]*)\./.exec(instruction)?.[1] || 'nothing yet';
    const parts = request.contents.at(-1)?.parts ?? [];

    const toolResult = parts.find((part) => part.functionResponse)?.functionResponse?.response;
    if (toolResult) {
      yield reply(`Noted, ${name}: I'll remember you like ${String(toolResult.saved)}.`);
      return;
    }
    const said = parts.map((part) => part.text ?? '').join(' ');
    const likes = LIKES.exec(said)?.[1]?.trim();
    if (likes) {
      yield { content: { role: 'model', parts: [{ functionCall: { name: 'remember_preference', args: { preference: likes } } }] } };
      return;
    }
    yield reply(`(scripted) ${name}, you said "${said}". You like: ${liked}.`);
  }

  connect(): Promise<BaseLlmConnection> {
    return Promise.reject(new Error('The scripted model has no live mode.'));
  }
}
