-- Follower lists for postings written before they existed, derived from the positions already
-- stored: in kb_tokens a term one position on is a follower (exact phrases are exactly the
-- consecutive positions); in kb_lexemes the lexemes one and two positions on. `at` has one row
-- per (document, position), so joining it never repeats an occurrence. Recomputes every row, so
-- it is safe to run again; the result equals what ingestion writes (test/knowledge/follower-lists).
WITH o AS (
  SELECT document_id, term, unnest(positions) AS pos FROM kb_tokens
), at AS (
  SELECT document_id, pos, string_agg(chr(2) || term || chr(2), '' ORDER BY term) AS entries FROM o GROUP BY document_id, pos
), f AS (
  SELECT o.document_id, o.term, coalesce(string_agg(a.entries, '' ORDER BY o.pos), '') AS followers
  FROM o LEFT JOIN at a ON a.document_id = o.document_id AND a.pos = o.pos + 1
  GROUP BY o.document_id, o.term
)
UPDATE kb_tokens t SET followers = f.followers FROM f WHERE t.document_id = f.document_id AND t.term = f.term;
--> statement-breakpoint
WITH o AS (
  SELECT document_id, term, unnest(positions) AS pos FROM kb_lexemes
), at AS (
  SELECT document_id, pos, string_agg(chr(2) || term || chr(2), '' ORDER BY term) AS entries FROM o GROUP BY document_id, pos
), f AS (
  SELECT o.document_id, o.term,
         coalesce(string_agg(a1.entries, '' ORDER BY o.pos), '') AS followers1,
         coalesce(string_agg(a2.entries, '' ORDER BY o.pos), '') AS followers2
  FROM o LEFT JOIN at a1 ON a1.document_id = o.document_id AND a1.pos = o.pos + 1
         LEFT JOIN at a2 ON a2.document_id = o.document_id AND a2.pos = o.pos + 2
  GROUP BY o.document_id, o.term
)
UPDATE kb_lexemes t SET followers1 = f.followers1, followers2 = f.followers2 FROM f WHERE t.document_id = f.document_id AND t.term = f.term;
