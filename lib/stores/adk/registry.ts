// Every ADK family Statehouse knows, in the order detection asks them. A new
// family is a folder with an AdkFamily and one line here.
import type { AdkFamily } from './family';
import { pythonDbFamily } from './python-db';
import { pythonSqliteFamily } from './python-sqlite';

export const ADK_FAMILIES: AdkFamily[] = [pythonSqliteFamily, pythonDbFamily];
