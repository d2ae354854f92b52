#!/usr/bin/env node
// The package ships TypeScript sources (like @paddock/contract); tsx runs them.
import { register } from 'tsx/esm/api';

register();
await import('../src/fake-acserver/cli.ts');
