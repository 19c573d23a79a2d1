import { createRequire as locusCreateRequire } from 'node:module'; const require = locusCreateRequire(import.meta.url);
import{require_dist2 as require_dist}from"./chunk-DK5AJQK6.js";import"./chunk-YCWUKCZ4.js";export default require_dist();
