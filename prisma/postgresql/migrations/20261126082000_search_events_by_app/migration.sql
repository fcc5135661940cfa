-- The Events tab searches one app's events. With the app outside the trigram
-- index, a small app's search for text a big app's events hold took all of
-- those from the index (or read every doc of the app through the app's
-- btree) before the app was tested. The events' trigram index now leads with
-- the app: btree_gin (a trusted extension, like pg_trgm: the database's owner
-- may create it; PostgreSQL 13+) indexes app_name in the same GIN index, so
-- the app and the trigrams narrow together. Without an app the index still
-- answers on the trigrams alone.
CREATE EXTENSION IF NOT EXISTS btree_gin;

DROP INDEX "search_docs_event_trgm_idx";

CREATE INDEX "search_docs_event_app_trgm_idx" ON "search_docs"
    USING gin ("app_name", (translate(lower("body"), E' \t\n\r-.,:/', 'qqqqqqqqq')) gin_trgm_ops) WHERE "kind" = 'event';
