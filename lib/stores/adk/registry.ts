// Every ADK family Statehouse knows, in the order detection asks them. A new
// family is a folder with an AdkFamily and one line here.
import type { AdkFamily } from './family';
import { adkGoFamily } from './go';
import { adkJsFamily } from './js';
import { pythonDbFamily } from './python-db';
import { pythonSqliteFamily } from './python-sqlite';
import { adkRustFamily } from './rust';

export const ADK_FAMILIES: AdkFamily[] = [pythonSqliteFamily, pythonDbFamily, adkJsFamily, adkRustFamily, adkGoFamily];
