-- wrk: POST a hand to one evening after another (a hall of tables), each wrk thread
-- starting at its own evening. Arguments: the path before the id ("/api/v1/evenings/"),
-- the path after it ("/hands"), the first evening id and how many evenings there are.
local threads = 0

function setup(thread)
  thread:set("tid", threads)
  threads = threads + 1
end

local players = {"Anna", "Bert", "Clara", "Dora", "Emil"}
local contracts = {"einfach", "einfach", "doppelt", "ohne"}

function init(args)
  before, after = args[1], args[2]
  first, count = tonumber(args[3]), tonumber(args[4])
  n = tid * 7919
end

function request()
  n = n + 1
  local id = first + (n % count)
  local bidder = players[n % 5 + 1]
  local partner = players[(n + 2) % 5 + 1]
  local body = string.format(
    '{"contract": "%s", "bidder": "%s", "partner": "%s", "points": %d}',
    contracts[n % 4 + 1], bidder, partner, 15 + (n * 7) % 45)
  return wrk.format("POST", before .. id .. after, {["Content-Type"] = "application/json"}, body)
end
