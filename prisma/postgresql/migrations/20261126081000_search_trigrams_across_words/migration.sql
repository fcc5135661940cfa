-- pg_trgm cuts text into words at every character that is not a letter or a
-- digit, so the trigrams of "about message" are those of "about" and of
-- "message": every doc holding both words anywhere was a candidate, and each
-- was rechecked (about 1 s over 1,000,000 event docs for a text no doc holds).
-- The index is now over the lower-cased body with spaces and common
-- punctuation written as 'q' (translate() maps character for character, so a
-- body holding the text holds the text mapped the same way): its trigrams
-- span word breaks ("tqm", "qme"). The query tests that mapped text through
-- the index and rechecks the real one, so it finds exactly what it did.
--
-- Events and the other kinds are indexed apart: the header find never returns
-- events, and a text many events hold no longer sends it through them.
DROP INDEX "search_docs_body_trgm_idx";

CREATE INDEX "search_docs_event_trgm_idx" ON "search_docs"
    USING gin ((translate(lower("body"), E' \t\n\r-.,:/', 'qqqqqqqqq')) gin_trgm_ops) WHERE "kind" = 'event';

CREATE INDEX "search_docs_other_trgm_idx" ON "search_docs"
    USING gin ((translate(lower("body"), E' \t\n\r-.,:/', 'qqqqqqqqq')) gin_trgm_ops) WHERE "kind" <> 'event';
