import { createRequire as locusCreateRequire } from 'node:module'; const require = locusCreateRequire(import.meta.url);
import{child_process,crypto,fs,os,path,stream,util}from"./chunk-ZPZMRYOQ.js";import"./chunk-YCWUKCZ4.js";export{child_process,crypto,fs,os,path,stream,util};
