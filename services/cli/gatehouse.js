#!/usr/bin/env node
// `npx gatehouse …`: registers tsx so the TypeScript sources run without a build step.
import { register } from 'tsx/esm/api';

register();
await import('./main.ts');
