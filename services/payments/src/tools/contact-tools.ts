import { z } from 'zod';
import { defineTool, type ToolDefinition } from '../../../../shared/mcp/tool.ts';
import { PaymentsError } from '../errors.ts';
import { findContact, listConnectionRequests, listContacts, type ConnectionRequest, type Contact } from '../store/contact-store.ts';
import { resolveWorkspace } from './file-proposal.ts';
import { buildPage, Cursor, Limit, PageFields, pageStart, READ_ANNOTATIONS, runTool, type PaymentsToolDeps } from './tool-kit.ts';

const ContactSchema = z.object({
  contact_id: z.string(),
  workspace_id: z.string(),
  name: z.string(),
  email: z.string().nullable(),
  wallet_address: z.string().nullable(),
  notes: z.string(),
  created_at: z.string(),
});

function contactDocument(c: Contact): z.infer<typeof ContactSchema> {
  return { contact_id: c.id, workspace_id: c.workspaceId, name: c.name, email: c.email, wallet_address: c.walletAddress, notes: c.notes, created_at: c.createdAt.toISOString() };
}

const RequestSchema = z.object({
  request_id: z.string(),
  from_entity_id: z.string(),
  to_entity_id: z.string().nullable(),
  to_email: z.string(),
  status: z.string(),
  message: z.string(),
  direction: z.enum(['incoming', 'outgoing']),
  created_at: z.string(),
});

const WorkingGroup = z.uuid().optional().describe('Workspace to read; default your personal workspace.');

export function createContactTools(deps: PaymentsToolDeps): ToolDefinition<any>[] {
  const list = defineTool({
    name: 'list_contacts',
    title: 'List contacts',
    description: 'Contacts in your workspace (or a working group you belong to), optionally filtered by name or email.',
    inputSchema: z.strictObject({ query: z.string().max(200).optional(), working_group_id: WorkingGroup, limit: Limit, cursor: Cursor }),
    outputSchema: z.object({ workspace_id: z.string(), contacts: z.array(ContactSchema), ...PageFields }),
    annotations: READ_ANNOTATIONS,
    handler: (input, { session }) =>
      runTool(async () => {
        const workspaceId = await resolveWorkspace(deps, session, input.working_group_id);
        const paging = { list: 'list_contacts', scope: [session.subject, workspaceId, input.query ?? null], limit: input.limit, cursor: input.cursor };
        const after = pageStart(paging);
        const rows = await listContacts(deps.handle.db, workspaceId, { ...(input.query ? { query: input.query } : {}), ...(after ? { after } : {}), limit: input.limit + 1 });
        return buildPage(paging, rows, (c) => c.id, 'contacts', contactDocument, { workspace_id: workspaceId });
      }),
  });

  const get = defineTool({
    name: 'get_contact',
    title: 'Get a contact',
    description: 'One contact by id.',
    inputSchema: z.strictObject({ contact_id: z.uuid(), working_group_id: WorkingGroup }),
    outputSchema: z.object({ contact: ContactSchema }),
    annotations: READ_ANNOTATIONS,
    handler: (input, { session }) =>
      runTool(async () => {
        const workspaceId = await resolveWorkspace(deps, session, input.working_group_id);
        const contact = await findContact(deps.handle.db, workspaceId, input.contact_id);
        if (!contact) throw new PaymentsError('not_found', `contact_id: no contact ${input.contact_id} in this workspace`);
        return { contact: contactDocument(contact) };
      }),
  });

  const requests = defineTool({
    name: 'list_connection_requests',
    title: 'List connection requests',
    description: 'Connection requests you sent or received.',
    inputSchema: z.strictObject({
      direction: z.enum(['incoming', 'outgoing', 'all']).default('all'),
      status: z.enum(['pending', 'accepted', 'declined']).optional(),
      limit: Limit,
      cursor: Cursor,
    }),
    outputSchema: z.object({ connection_requests: z.array(RequestSchema), ...PageFields }),
    annotations: READ_ANNOTATIONS,
    handler: (input, { session }) =>
      runTool(async () => {
        const paging = { list: 'list_connection_requests', scope: [session.subject, input.direction, input.status ?? null], limit: input.limit, cursor: input.cursor };
        const after = pageStart(paging);
        const rows = await listConnectionRequests(deps.handle.db, session.subject, {
          direction: input.direction,
          ...(input.status ? { status: input.status } : {}),
          ...(after ? { after } : {}),
          limit: input.limit + 1,
        });
        return buildPage(paging, rows, (r) => r.id, 'connection_requests', (r: ConnectionRequest) => ({
          request_id: r.id,
          from_entity_id: r.fromEntityId,
          to_entity_id: r.toEntityId,
          to_email: r.toEmail,
          status: r.status,
          message: r.message,
          direction: r.fromEntityId === session.subject ? 'outgoing' : 'incoming',
          created_at: r.createdAt.toISOString(),
        }));
      }),
  });

  return [list, get, requests];
}
