-- A faction's content hash as its first 11 base64url characters (66 bits
-- of the SHA-256) instead of 22: the hash only pairs a file's new factions
-- with its live ones at the file's next reading, where two different texts
-- of one file agreeing on 66 bits is not a case to plan for (a file of 10k
-- factions: about one chance in 10^12). 11 bytes a faction: 1.2 MB of a
-- 1 M-line tree's 112k factions. `storedHash` cuts new hashes the same.
UPDATE faction_rows SET content_hash = substr(content_hash, 1, 11) WHERE length(content_hash) > 11;
