import NIOCore

/// Holds back closing a connection until the writes before it have reached the socket.
///
/// At shutdown Hummingbird closes each connection right after writing its last response, and
/// NIO drops writes still queued when a channel closes: a 30 MB PDF sent while the service
/// stops arrived cut off at the socket buffer's size. This handler, below the HTTP handlers,
/// delays the close until every earlier write has completed.
final class FlushBeforeClose: ChannelOutboundHandler, RemovableChannelHandler {
    typealias OutboundIn = NIOAny
    typealias OutboundOut = NIOAny

    private var pendingWrites = 0
    private var heldClose: (mode: CloseMode, promise: EventLoopPromise<Void>?)?

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        pendingWrites += 1
        let written = context.eventLoop.makePromise(of: Void.self)
        let loopBound = NIOLoopBound((handler: self, context: context), eventLoop: context.eventLoop)
        written.futureResult.whenComplete { result in
            let (handler, context) = loopBound.value
            handler.pendingWrites -= 1
            promise?.completeWith(result)
            if handler.pendingWrites == 0, let held = handler.heldClose {
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
}
