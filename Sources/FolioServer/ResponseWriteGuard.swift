import NIOCore

/// Watches a connection's response writes: the connection is not closed before they have reached
/// the socket, and it is closed when they cannot be delivered in time.
///
/// - At shutdown Hummingbird closes each connection right after writing its last response, and
///   NIO drops writes still queued when a channel closes: a 30 MB PDF sent while the service
///   stopped arrived cut off at the socket buffer's size. A close is held until every earlier
///   write has completed.
/// - A client that asks for large documents and never reads them would keep each one in memory
///   for as long as it liked. When writes stay pending for `writeTimeout`, the connection is closed
///   and its queued bytes are freed.
final class ResponseWriteGuard: ChannelOutboundHandler, RemovableChannelHandler {
    typealias OutboundIn = NIOAny
    typealias OutboundOut = NIOAny

    private let writeTimeout: TimeAmount
    private var pendingWrites = 0
    private var heldClose: (mode: CloseMode, promise: EventLoopPromise<Void>?)?
    private var timeout: Scheduled<Void>?

    init(writeTimeout: TimeAmount) { self.writeTimeout = writeTimeout }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        pendingWrites += 1
        let loopBound = NIOLoopBound((handler: self, context: context), eventLoop: context.eventLoop)
        if timeout == nil {
            timeout = context.eventLoop.scheduleTask(in: writeTimeout) {
                let (handler, context) = loopBound.value
                handler.timeout = nil
                guard handler.pendingWrites > 0 else { return }
                // The client has not taken the response in time: drop it and the connection.
                handler.heldClose = nil
                handler.pendingWrites = 0
                context.close(mode: .all, promise: nil)
            }
        }
        let written = context.eventLoop.makePromise(of: Void.self)
        written.futureResult.whenComplete { result in
            let (handler, context) = loopBound.value
            handler.pendingWrites = max(0, handler.pendingWrites - 1)
            promise?.completeWith(result)
            guard handler.pendingWrites == 0 else { return }
            handler.timeout?.cancel()
            handler.timeout = nil
            if let held = handler.heldClose {
                handler.heldClose = nil
                context.close(mode: held.mode, promise: held.promise)
            }
        }
        context.write(data, promise: written)
    }

    func close(context: ChannelHandlerContext, mode: CloseMode, promise: EventLoopPromise<Void>?) {
        guard mode == .all, pendingWrites > 0 else {
            context.close(mode: mode, promise: promise)
            return
        }
        if let held = heldClose, let earlier = held.promise {
            if let promise { earlier.futureResult.cascade(to: promise) }
        } else {
            heldClose = (mode, promise)
        }
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        timeout?.cancel()
        timeout = nil
    }
}
