local json = require("vendor.json")
local Queue = require("queue")

local Scheduler = {}
Scheduler.__index = Scheduler

--- Creates a scheduler with an empty queue.
function Scheduler.new(limit)
  local self = setmetatable({}, Scheduler)
  self.queue = Queue.new()
  self.limit = limit
  return self
end

--- Adds a job unless the queue is full.
function Scheduler:submit(job)
  if self.queue:size() >= self.limit then
    return false
  end
  self.queue:push(job)
  return true
end

function Scheduler:drain()
  for _, job in ipairs(self.queue:items()) do
    job.run()
  end
end

local function encode(job)
  return json.encode(job)
end

Scheduler.describe = function(job)
  return encode(job)
end

DEFAULT_LIMIT = 64

return Scheduler
