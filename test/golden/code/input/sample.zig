const std = @import("std");
const Allocator = std.mem.Allocator;

/// Most tickets one counter holds.
pub const max_tickets = 128;

/// A ticket counter that hands out numbered tickets.
pub const Counter = struct {
    next: u32,
    served: std.ArrayList(u32),

    /// Makes an empty counter.
    pub fn init(allocator: Allocator) Counter {
        return .{ .next = 1, .served = std.ArrayList(u32).init(allocator) };
    }

    /// Hands out the next ticket.
    pub fn take(self: *Counter) !u32 {
        if (self.next > max_tickets) return error.Full;
        const ticket = self.next;
        self.next += 1;
        return ticket;
    }
};

pub const Window = enum { open, closed };

pub const Event = union(enum) {
    taken: u32,
    closed: void,
};

pub fn describe(window: Window) []const u8 {
    return switch (window) {
        .open => "open",
        .closed => "closed",
    };
}

var total_served: u64 = 0;

test "takes tickets in order" {
    var counter = Counter.init(std.testing.allocator);
    try std.testing.expectEqual(@as(u32, 1), try counter.take());
}
