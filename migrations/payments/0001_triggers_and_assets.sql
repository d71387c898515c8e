-- The intent state machine, enforced where no code path can skip it (seed 001 "Propose → confirm → settle"):
-- proposed → approved → submitting → submitted → completed | failed; only proposed → cancelled | expired.
-- Every transition (and the filing) writes one audit row in the same statement, so the audit
-- trail cannot miss a transition that some future code path forgets to log.
-- BEFORE: refuse illegal transitions and identity changes. AFTER: audit and notify — after, so
-- a proposal that lost the identity race (ON CONFLICT DO NOTHING) leaves no phantom audit row.
CREATE OR REPLACE FUNCTION pay_intent_guard() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    IF NEW.status <> 'proposed' THEN
      RAISE EXCEPTION 'an intent is filed as proposed, not %', NEW.status USING ERRCODE = '23514';
    END IF;
    RETURN NEW;
  END IF;
  -- What the person confirmed is what settles: the identity of an intent never changes.
  IF NEW.kind IS DISTINCT FROM OLD.kind OR NEW.arguments IS DISTINCT FROM OLD.arguments
     OR NEW.wallet_id IS DISTINCT FROM OLD.wallet_id OR NEW.chain_id IS DISTINCT FROM OLD.chain_id
     OR NEW.workspace_id IS DISTINCT FROM OLD.workspace_id OR NEW.actor_user_id IS DISTINCT FROM OLD.actor_user_id
     OR NEW.identity_hash IS DISTINCT FROM OLD.identity_hash OR NEW.title IS DISTINCT FROM OLD.title
     OR NEW.rationale IS DISTINCT FROM OLD.rationale OR NEW.expires_at IS DISTINCT FROM OLD.expires_at
     OR (OLD.message_id IS NOT NULL AND NEW.message_id IS DISTINCT FROM OLD.message_id) THEN
    RAISE EXCEPTION 'the identity of intent % is immutable', OLD.id USING ERRCODE = '23514';
  END IF;
  IF NEW.status IS DISTINCT FROM OLD.status AND NOT ((OLD.status, NEW.status) IN (
      ('proposed', 'approved'), ('proposed', 'cancelled'), ('proposed', 'expired'),
      ('approved', 'submitting'), ('submitting', 'submitted'),
      ('submitted', 'completed'), ('submitted', 'failed'))) THEN
    RAISE EXCEPTION 'illegal intent transition % -> %', OLD.status, NEW.status USING ERRCODE = '23514';
  END IF;
  RETURN NEW;
END $$;
--> statement-breakpoint
CREATE TRIGGER pay_intents_guard BEFORE INSERT OR UPDATE ON pay_intents
  FOR EACH ROW EXECUTE FUNCTION pay_intent_guard();
--> statement-breakpoint
CREATE OR REPLACE FUNCTION pay_intent_audit() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    INSERT INTO pay_intent_events (intent_id, from_status, to_status, actor, reason)
      VALUES (NEW.id, NULL, NEW.status, NEW.last_actor, NULL);
  ELSIF NEW.status IS DISTINCT FROM OLD.status THEN
    INSERT INTO pay_intent_events (intent_id, from_status, to_status, actor, reason)
      VALUES (NEW.id, OLD.status, NEW.status, NEW.last_actor, NEW.failure_reason);
    -- Wake waiters and workers at commit instead of having them poll in a tight loop.
    IF NEW.status IN ('completed', 'failed') THEN
      PERFORM pg_notify('pay_settlement', NEW.message_id);
    ELSIF NEW.status = 'approved' THEN
      PERFORM pg_notify('pay_work', NEW.chain_id);
    END IF;
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER pay_intents_audit AFTER INSERT OR UPDATE ON pay_intents
  FOR EACH ROW EXECUTE FUNCTION pay_intent_audit();
--> statement-breakpoint
CREATE OR REPLACE FUNCTION pay_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION '% is append-only', TG_TABLE_NAME USING ERRCODE = '42501';
END $$;
--> statement-breakpoint
CREATE TRIGGER pay_intent_events_append_only BEFORE UPDATE OR DELETE ON pay_intent_events
  FOR EACH ROW EXECUTE FUNCTION pay_append_only();
--> statement-breakpoint
CREATE TRIGGER pay_postings_append_only BEFORE UPDATE OR DELETE ON pay_postings
  FOR EACH ROW EXECUTE FUNCTION pay_append_only();
--> statement-breakpoint
-- The assets each chain carries: cash tokens and one credit instrument. The live chain has no faucet account.
INSERT INTO pay_assets (id, chain_id, symbol, name, kind, decimals, description) VALUES
  ('153-usdc', '153', 'USDC', 'USD Coin (test)', 'cash', 6, 'Test-chain dollar stablecoin; fund it with npx gatehouse wallet fund.'),
  ('153-eurc', '153', 'EURC', 'Euro Coin (test)', 'cash', 6, 'Test-chain euro stablecoin.'),
  ('153-tcn30', '153', 'TCN30', '30-day trade credit note (test)', 'credit', 6, 'A receivable due in 30 days, swappable for cash.'),
  ('151-usdc', '151', 'USDC', 'USD Coin', 'cash', 6, 'Dollar stablecoin.'),
  ('151-eurc', '151', 'EURC', 'Euro Coin', 'cash', 6, 'Euro stablecoin.'),
  ('151-tcn30', '151', 'TCN30', '30-day trade credit note', 'credit', 6, 'A receivable due in 30 days, swappable for cash.');
--> statement-breakpoint
INSERT INTO pay_accounts (kind, asset_id) SELECT 'escrow', id FROM pay_assets;
--> statement-breakpoint
INSERT INTO pay_accounts (kind, asset_id) SELECT 'faucet', id FROM pay_assets WHERE chain_id = '153';
