import { createRequire as locusCreateRequire } from 'node:module'; const require = locusCreateRequire(import.meta.url);
