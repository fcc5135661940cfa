// The example agent as `adk api_server` serves it: the app is this file's name
// (adk-example), the model the scripted stand-in, so a server needs no key.
import { createConciergeAgent } from '../agent';
import { ScriptedConciergeModel } from '../scripted-model';

export const rootAgent = createConciergeAgent(new ScriptedConciergeModel());
