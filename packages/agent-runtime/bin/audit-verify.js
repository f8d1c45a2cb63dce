#!/usr/bin/env node
// pnpm audit:verify [--agent <name>]: verifies the agents' audit trails in MongoDB (see src/audit/verify-command.ts).
import { runAuditVerify } from "../dist/audit/verify-command.js";

process.exitCode = await runAuditVerify(process.argv.slice(2), process.env);
